/**
 * The ingest part: signed, unique events posted at 50 connections between two phases of /api/health on the same
 * server; every 200 must be a stored row (docs/performance.md, "How each part measures").
 * Results: bench/results/ingest.json.
 */
import crypto from "node:crypto";

import autocannon from "autocannon";
import { sql } from "drizzle-orm";

import { insertTestConnection } from "@/lib/testing/webhooks";

import { processTreeRss, rowsOf, sampleRss, sleep, withDatabase, type Scenario } from "./reliability/server";
import { benchConsole, benchScenario } from "./support/console";
import { measuredPart, MiB, round, sum, type BackendContext } from "./support/part";
import type { Metric } from "./support/report";
import { signedExpiredEvent, type Sender } from "./support/signed-event";

const NAME = "ingest";
const CONNECTIONS = 50;
const HEALTH_SECONDS = Number(process.env.BENCH_HEALTH_SECONDS ?? 5);
const INGEST_SECONDS = Number(process.env.BENCH_INGEST_SECONDS ?? 10);
/** Console connections (tenants) the events are spread over. */
export const WEBHOOK_URLS = 4;
/**
 * Requests per route before the clock starts: Next loads a route's code on its first request, and V8
 * optimises the hot paths over the first thousands (after 200, the first health phase ran at about
 * half the second's rate). A number, not a duration, so every warm-up event is answered and counted.
 */
const WARM_UP_REQUESTS = 1_000;

const TARGETS = {
  ratio: "durable unique events/s ÷ /api/health req/s (same run) ≥ 0.75 PGlite, ≥ 0.85 PostgreSQL",
  p99: "ingest p99 ≤ 150 ms at 50 connections",
  rssIdle: "console RSS idle ≤ 300 MiB PGlite, ≤ 150 MiB PostgreSQL",
  rssIngest: "console RSS under ingest ≤ 400 MiB",
  rows: "rows stored = 200s answered",
};

type Phase = { name: string; result: autocannon.Result; from: number; to: number };
export type IngestPhases = { phases: Phase[]; warmUpOk: number };

export const ingestPart = measuredPart(
  NAME,
  `Ingest: signed unique events over HTTP at ${CONNECTIONS} connections for ${INGEST_SECONDS} s, between two ${HEALTH_SECONDS} s phases of /api/health`,
  TARGETS,
  measure,
);

async function measure(backend: BackendContext) {
  const scenario = await benchScenario(NAME);
  try {
    const senders = await webhookSenders(scenario, WEBHOOK_URLS);

    const server = await benchConsole(scenario);
    let run: IngestPhases;
    let idleRss: number;
    let samples: Array<{ at: number; bytes: number }>;
    try {
      // Idle: started and answering health, nothing else yet.
      await sleep(2000);
      idleRss = processTreeRss(server.child.pid!);
      const sampler = sampleRss(server.child.pid!, 100);
      try {
        run = await runIngestPhases(server.url, senders, backend.key);
      } finally {
        samples = sampler.stop();
      }
    } finally {
      await server.stop();
    }

    // Counted with the console stopped (a PGlite directory has one owner at a time).
    const stored = await withDatabase(scenario, async (db) =>
      Number(rowsOf<{ n: string }>(await db.execute(sql`select count(*) as n from webhook_events`))[0]!.n),
    );
    return figures(run.phases, { stored, warmUpOk: run.warmUpOk, idleRss, samples });
  } finally {
    await scenario.dispose();
  }
}

/** `count` console connections in the scenario's database, each with a server key that signs its deliveries. */
export function webhookSenders(scenario: Scenario, count: number): Promise<Array<Sender & { connectionId: string }>> {
  return withDatabase(scenario, async () => {
    const created: Array<Sender & { connectionId: string }> = [];
    for (let i = 0; i < count; i++) {
      const key = `bench_srv_${crypto.randomBytes(16).toString("hex")}`;
      const { id, token } = await insertTestConnection(`Ingest ${i + 1}`, [key]);
      created.push({ connectionId: id, token, key });
    }
    return created;
  });
}

/**
 * Each route warmed up, then /api/health, ingest and /api/health again, each phase printed as it ends.
 * `settle` runs after the warm-up and between ingest and the last phase (to let work the events started
 * finish, so that each health phase measures an idle console).
 */
export async function runIngestPhases(
  url: string,
  senders: Sender[],
  label: string,
  { settle }: { settle?: () => Promise<void> } = {},
): Promise<IngestPhases> {
  const phases: Phase[] = [];
  await load(url, { amount: WARM_UP_REQUESTS, requests: [{ method: "GET", path: "/api/health" }] });
  const warmUpOk = (await load(url, { amount: WARM_UP_REQUESTS, requests: [webhookRequests(senders)] }))["2xx"];
  await settle?.();
  const phase = async (name: string, options: Partial<autocannon.Options>) => {
    const from = Date.now();
    const result = await load(url, options);
    phases.push({ name, result, from, to: Date.now() });
    console.log(
      `  ${label} ${name}: ${Math.round(result.requests.total / result.duration)} req/s, p99 ${result.latency.p99} ms, ${result.non2xx} non-2xx, ${result.errors} errors`,
    );
  };
  await phase("health", { duration: HEALTH_SECONDS, requests: [{ method: "GET", path: "/api/health" }] });
  await phase("ingest", { duration: INGEST_SECONDS, requests: [webhookRequests(senders)] });
  await settle?.();
  await phase("health", { duration: HEALTH_SECONDS, requests: [{ method: "GET", path: "/api/health" }] });
  return { phases, warmUpOk };
}

/**
 * Health's rate over both its phases, the ingest phase's durable events/s (rows it stored ÷ its seconds), and their
 * ratio.
 */
export function ingestRates(phases: Phase[], ingestRows: number) {
  const health = phases.filter((p) => p.name === "health");
  const ingest = phases.find((p) => p.name === "ingest")!;
  const healthRate = sum(health, (p) => p.result.requests.total) / sum(health, (p) => p.result.duration);
  const durableRate = ingestRows / ingest.result.duration;
  return { health, ingest, healthRate, durableRate, ratio: durableRate / healthRate };
}

/** `amount` new signed events at `rate` per second over the senders' webhook URLs (a steady stream, not a flood). */
export function sendEventsAtRate(
  url: string,
  senders: Sender[],
  amount: number,
  rate: number,
): Promise<autocannon.Result> {
  return load(url, { amount, overallRate: rate, requests: [webhookRequests(senders)] });
}

/** One autocannon run against the console at the bench's connection count. */
function load(url: string, options: Partial<autocannon.Options>): Promise<autocannon.Result> {
  return autocannon({ url, connections: CONNECTIONS, ...options });
}

/**
 * A request template whose every request is a new event, signed now with its connection's key: what
 * the service sends. Signing is one HMAC-SHA256 over a ~450-byte body, microseconds per request.
 */
export function webhookRequests(senders: Sender[]): autocannon.Request {
  let n = 0;
  return {
    method: "POST",
    setupRequest: (request) => {
      const sender = senders[n++ % senders.length]!;
      return {
        ...request,
        ...signedExpiredEvent(sender, {
          userId: `usr_bench_${n % 5000}`,
          deviceName: "Bench phone",
          devicePlatform: n % 2 ? "IOS" : "ANDROID",
        }),
      };
    },
  };
}

function figures(
  phases: Phase[],
  run: { stored: number; warmUpOk: number; idleRss: number; samples: Array<{ at: number; bytes: number }> },
) {
  // Rows stored by the ingest phase: the warm-up's events are stored too, and counted apart.
  const ingestRows = run.stored - run.warmUpOk;
  const { health, ingest, healthRate, durableRate, ratio } = ingestRates(phases, ingestRows);
  const answered = ingest.result.requests.total;
  const ok200 = statusCount(ingest.result, 200);
  const inFlight = ingest.result.requests.sent - answered;
  const peak = (from: number, to: number) =>
    Math.max(0, ...run.samples.filter((s) => s.at >= from && s.at <= to).map((s) => s.bytes));
  const latency = (result: autocannon.Result) => ({
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
  });
  const metrics: Metric[] = [
    { metric: "/api/health req/s (both phases)", value: round(healthRate, 0), unit: "req/s" },
    {
      metric: "/api/health p50 / p99",
      value: null,
      unit: "ms",
      display: health.map((p) => `${p.result.latency.p50} / ${p.result.latency.p99} ms`).join(", "),
    },
    { metric: "ingest answers/s", value: round(answered / ingest.result.duration, 0), unit: "req/s" },
    { metric: "durable unique events/s (rows ÷ s)", value: round(durableRate, 0), unit: "ev/s" },
    {
      metric: "ratio events/s ÷ health req/s",
      value: round(ratio, 3),
      unit: "",
      target: { op: ">=", pglite: 0.75, postgres: 0.85 },
    },
    { metric: "ingest p50", value: ingest.result.latency.p50, unit: "ms" },
    { metric: "ingest p99", value: ingest.result.latency.p99, unit: "ms", target: { op: "<=", value: 150 } },
    { metric: "rows stored (ingest phase)", value: ingestRows, unit: "" },
    { metric: "200s answered (ingest phase)", value: ok200, unit: "" },
    // Every 200 is a promise that the event is stored: none may be missing.
    {
      metric: "200s answered without a stored row",
      value: Math.max(0, ok200 - ingestRows),
      unit: "rows",
      target: { op: "<=", value: 0 },
    },
    // When the clock stops, autocannon drops the requests still in flight; the console may store them all the same.
    {
      metric: "rows stored beyond 200s answered",
      value: ingestRows - ok200,
      unit: "rows",
      display: `${ingestRows - ok200} (${inFlight} requests in flight when the clock stopped)`,
    },
    {
      metric: "non-2xx / errors / timeouts",
      value: ingest.result.non2xx + ingest.result.errors,
      unit: "",
      display: `${ingest.result.non2xx} / ${ingest.result.errors} / ${ingest.result.timeouts}`,
    },
    {
      metric: "RSS idle",
      value: round(run.idleRss / MiB),
      unit: "MiB",
      target: { op: "<=", pglite: 300, postgres: 150 },
    },
    {
      metric: "RSS peak under /api/health",
      value: round(Math.max(...health.map((p) => peak(p.from, p.to))) / MiB),
      unit: "MiB",
    },
    {
      metric: "RSS peak under ingest",
      value: round(peak(ingest.from, ingest.to) / MiB),
      unit: "MiB",
      target: { op: "<=", value: 400 },
    },
  ];
  return {
    metrics,
    connections: CONNECTIONS,
    webhookUrls: WEBHOOK_URLS,
    phases: phases.map((p) => ({
      name: p.name,
      seconds: p.result.duration,
      answered: p.result.requests.total,
      sent: p.result.requests.sent,
      statusCodes: p.result.statusCodeStats,
      non2xx: p.result.non2xx,
      errors: p.result.errors,
      timeouts: p.result.timeouts,
      latency: latency(p.result),
    })),
    warmUp: { requestsPerRoute: WARM_UP_REQUESTS, webhookEventsStored: run.warmUpOk },
    rowsInWebhookEvents: run.stored,
    rssMiB: {
      idle: round(run.idleRss / MiB),
      peak: round(Math.max(...run.samples.map((s) => s.bytes)) / MiB),
      sampleEveryMs: 100,
    },
  };
}

const statusCount = (result: autocannon.Result, status: number) => result.statusCodeStats?.[`${status}`]?.count ?? 0;
