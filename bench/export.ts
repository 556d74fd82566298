/**
 * The export part: the CSV of every stored event read to its end, rows/s and the console's RSS, while a health check
 * and a webhook POST are timed beside it, since PGlite runs one statement at a time (docs/performance.md, "How each
 * part measures"). Results: bench/results/export.json.
 */
import crypto from "node:crypto";

import { eq } from "drizzle-orm";

import { connections } from "@/lib/db/schema";
import { insertTestConnection } from "@/lib/testing/webhooks";

import { processTreeRss, sampleRss, sleep, withDatabase } from "./reliability/server";
import { signInBenchUser, withConsole } from "./support/console";
import { FULL_EVENTS, sharedDataset, type Dataset, type LoadFigures } from "./support/dataset";
import { measuredPart, MiB, round, type BackendContext } from "./support/part";
import type { Metric } from "./support/report";
import { signedExpiredEvent, type Sender } from "./support/signed-event";

const NAME = "export";
const TARGETS = {
  rowsPerSecond: "≥ 50,000 rows/s PGlite, ≥ 100,000 rows/s PostgreSQL",
  rssGrowth: "console RSS growth during the export ≤ 64 MiB",
  probes: "/api/health and a signed webhook POST every ~50 ms during the export: ingest is not held behind it",
};
/** How often the probes start a request (each waits for its previous answer). */
const PROBE_EVERY_MS = 50;
/** Probe requests before the export, for the idle figures (and to load the routes' code). */
const IDLE_PROBE_MS = 3000;

export const exportPart = measuredPart(
  NAME,
  `CSV export of every event (${FULL_EVENTS.toLocaleString("en")} stored)`,
  TARGETS,
  measure,
);

async function measure(backend: BackendContext) {
  const { dataset, load } = await sharedDataset(FULL_EVENTS, `${NAME}-${backend.key}`);
  // The probe's connection and key (PGlite: written before the console holds the directory).
  const key = `bench_srv_${crypto.randomBytes(16).toString("hex")}`;
  const probe = await withDatabase(dataset.scenario, () => insertTestConnection("Export probe", [key]));
  try {
    return await measureWithConsole(dataset, load, { token: probe.token, key });
  } finally {
    // The probe's events go with its connection (cascade), so the next parts see the dataset as loaded.
    await withDatabase(dataset.scenario, (db) => db.delete(connections).where(eq(connections.id, probe.id)));
  }
}

async function measureWithConsole(dataset: Dataset, load: LoadFigures | undefined, sender: Sender) {
  return withConsole(dataset.scenario, async (server) => {
    const session = await signInBenchUser(server);
    const health = () => timed(() => fetch(`${server.url}/api/health`));
    const webhook = () => timed(() => postWebhook(server.url, sender));
    // Idle figures, before any export.
    const idle = await probeWhile(sleep(IDLE_PROBE_MS), [health, webhook]);
    const url = (query: string) => `${server.url}/api/webhook-events/export?format=csv&${query}`;
    // A first, empty export loads the route's code, which is not what the export's memory is about.
    await readExport(url("connectionId=all&userId=usr_nobody"), session.cookie);
    await sleep(1000);
    const before = processTreeRss(server.child.pid!);
    const sampler = sampleRss(server.child.pid!, 100);
    let read: ExportRead;
    let samples: Array<{ at: number; bytes: number }>;
    let during: ProbeResult[];
    try {
      const exported = readExport(url("connectionId=all&type=all"), session.cookie);
      during = await probeWhile(exported, [health, webhook]);
      read = await exported;
    } finally {
      samples = sampler.stop();
    }
    const [idleHealth, idleWebhook] = idle.map(latency);
    const [duringHealth, duringWebhook] = during.map(latency);
    const failed = during.reduce((n, p) => n + p.failures, 0);
    const expected = dataset.events + idleWebhook!.samples;
    const peak = Math.max(...samples.map((s) => s.bytes));
    const rowsPerSecond = read.rows / read.seconds;
    const metrics: Metric[] = [
      {
        metric: "rows exported / stored",
        value: read.rows,
        unit: "",
        display: `${read.rows.toLocaleString("en")} / ${expected.toLocaleString("en")} (${dataset.events.toLocaleString("en")} loaded + ${idleWebhook!.samples} probe events posted before the export)`,
      },
      // Probe events posted during the export are newer than its first page: it may or may not hold them.
      {
        metric: "rows missing from the export",
        value: Math.max(0, expected - read.rows),
        unit: "rows",
        target: { op: "<=", value: 0 },
      },
      { metric: "export time", value: round(read.seconds, 2), unit: "s" },
      { metric: "time to first byte", value: round(read.firstByteMs, 0), unit: "ms" },
      {
        metric: "rows/s",
        value: round(rowsPerSecond, 0),
        unit: "rows/s",
        target: { op: ">=", pglite: 50_000, postgres: 100_000 },
      },
      // fetch asks for gzip, as a browser does; the size is the CSV's, as read after decoding.
      {
        metric: "CSV size",
        value: round(read.bytes / MiB),
        unit: "MiB",
        display: `${round(read.bytes / MiB)} MiB (sent as ${read.encoding})`,
      },
      { metric: "RSS before", value: round(before / MiB), unit: "MiB" },
      { metric: "RSS peak during export", value: round(peak / MiB), unit: "MiB" },
      { metric: "RSS growth", value: round((peak - before) / MiB), unit: "MiB", target: { op: "<=", value: 64 } },
      { metric: "/api/health p50 / p99 / max, idle", value: null, unit: "ms", display: idleHealth!.display },
      {
        metric: "/api/health p50 / p99 / max, during export",
        value: duringHealth!.p99Ms,
        unit: "ms",
        display: duringHealth!.display,
      },
      { metric: "webhook POST p50 / p99 / max, idle", value: null, unit: "ms", display: idleWebhook!.display },
      {
        metric: "webhook POST p50 / p99 / max, during export",
        value: duringWebhook!.p99Ms,
        unit: "ms",
        display: duringWebhook!.display,
      },
      { metric: "probe requests failed during export", value: failed, unit: "", target: { op: "<=", value: 0 } },
    ];
    return {
      metrics,
      storedEvents: dataset.events,
      loadedForThisPart: load ?? null,
      status: read.status,
      rssSamples: samples.length,
      probes: {
        everyMs: PROBE_EVERY_MS,
        idle: { health: idleHealth, webhook: idleWebhook },
        duringExport: { health: duringHealth, webhook: duringWebhook },
      },
    };
  });
}

type ExportRead = {
  status: number;
  rows: number;
  bytes: number;
  seconds: number;
  firstByteMs: number;
  encoding: string;
};

/** Reads the whole streamed CSV, counting its lines (every cell the bench loads is free of line breaks). */
async function readExport(url: string, cookie: string): Promise<ExportRead> {
  const started = performance.now();
  const response = await fetch(url, { headers: { cookie } });
  if (response.status !== 200 || !response.body) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  let firstByteMs = 0;
  let bytes = 0;
  let lines = 0;
  const reader = response.body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    const chunk = next.value;
    if (bytes === 0) firstByteMs = performance.now() - started;
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
  }
  // The first line is the header.
  const encoding = response.headers.get("content-encoding") ?? "identity";
  return {
    status: response.status,
    rows: lines - 1,
    bytes,
    seconds: (performance.now() - started) / 1000,
    firstByteMs,
    encoding,
  };
}

type ProbeResult = { times: number[]; failures: number; errors: string[] };

/** The time of one request, read to its end; a non-2xx answer throws. */
async function timed(request: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const response = await request();
  const body = await response.text();
  if (!response.ok) throw new Error(`probe: ${response.status} ${body.slice(0, 200)}`);
  return performance.now() - started;
}

/** One new authenticator.expired event, signed now with the probe connection's key, as the service sends it. */
function postWebhook(baseUrl: string, sender: Sender): Promise<Response> {
  const { path, headers, body } = signedExpiredEvent(sender, {
    userId: "usr_export_probe",
    deviceName: "Probe phone",
    devicePlatform: "IOS",
  });
  return fetch(`${baseUrl}${path}`, { method: "POST", headers, body });
}

/** Runs each probe every PROBE_EVERY_MS (or as soon as its previous answer, when slower) until `until` settles. */
async function probeWhile(until: Promise<unknown>, probes: Array<() => Promise<number>>): Promise<ProbeResult[]> {
  let done = false;
  const finished = until.then(
    () => void (done = true),
    () => void (done = true),
  );
  return Promise.all(
    probes.map(async (probe) => {
      const result: ProbeResult = { times: [], failures: 0, errors: [] };
      while (!done) {
        const started = performance.now();
        try {
          result.times.push(await probe());
        } catch (error) {
          result.failures += 1;
          const message = `${(error as Error).message} after ${round(performance.now() - started, 0)} ms`;
          if (result.errors.length < 5) result.errors.push(message);
        }
        const wait = PROBE_EVERY_MS - (performance.now() - started);
        if (wait > 0 && !done) await Promise.race([sleep(wait), finished]);
      }
      return result;
    }),
  );
}

function latency(result: ProbeResult) {
  const sorted = [...result.times].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted.length ? round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!, 1) : 0;
  const summary = {
    samples: sorted.length,
    failures: result.failures,
    errors: result.errors,
    p50Ms: at(50),
    p99Ms: at(99),
    maxMs: round(sorted.at(-1) ?? 0, 1),
  };
  return {
    ...summary,
    display: `${summary.p50Ms} / ${summary.p99Ms} / ${summary.maxMs} ms (${summary.samples} requests)`,
  };
}
