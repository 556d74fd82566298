/**
 * The export part of `npm run bench`: the CSV of every stored event (GET /api/webhook-events/export,
 * connectionId=all&type=all, signed in) read to its end over HTTP, at 1,000,000 events by default:
 * rows/s, and the console's RSS (its process tree, from /proc every 100 ms) while it streams, against
 * its RSS just before. Uses the query part's events when run with it, else loads its own.
 * Results: bench/results/export.json.
 */
import { processTreeRss, sampleRss, sleep } from "./reliability/server";
import { signInBenchUser, withConsole } from "./support/console";
import { FULL_EVENTS, sharedDataset } from "./support/dataset";
import { measuredPart, MiB, round, type BackendContext } from "./support/part";
import type { Metric } from "./support/report";

const NAME = "export";
const TARGETS = {
  rowsPerSecond: "≥ 50,000 rows/s PGlite, ≥ 100,000 rows/s PostgreSQL",
  rssGrowth: "console RSS growth during the export ≤ 64 MiB",
};

export const exportPart = measuredPart(NAME, `CSV export of every event (${FULL_EVENTS.toLocaleString("en")} stored)`, TARGETS, measure);

async function measure(backend: BackendContext) {
  const { dataset, load } = await sharedDataset(FULL_EVENTS, `${NAME}-${backend.key}`);
  return withConsole(dataset.scenario, async (server) => {
    const session = await signInBenchUser(server);
    const url = (query: string) => `${server.url}/api/webhook-events/export?format=csv&${query}`;
    // A first, empty export loads the route's code, which is not what the export's memory is about.
    await readExport(url("connectionId=all&userId=usr_nobody"), session.cookie);
    await sleep(1000);
    const before = processTreeRss(server.child.pid!);
    const sampler = sampleRss(server.child.pid!, 100);
    let read: ExportRead;
    let samples: Array<{ at: number; bytes: number }>;
    try {
      read = await readExport(url("connectionId=all&type=all"), session.cookie);
    } finally {
      samples = sampler.stop();
    }
    const peak = Math.max(...samples.map((s) => s.bytes));
    const rowsPerSecond = read.rows / read.seconds;
    const metrics: Metric[] = [
      { metric: "rows exported / stored", value: read.rows, unit: "", display: `${read.rows.toLocaleString("en")} / ${dataset.events.toLocaleString("en")}` },
      { metric: "rows missing from the export", value: dataset.events - read.rows, unit: "rows", target: { op: "<=", value: 0 } },
      { metric: "export time", value: round(read.seconds, 2), unit: "s" },
      { metric: "time to first byte", value: round(read.firstByteMs, 0), unit: "ms" },
      { metric: "rows/s", value: round(rowsPerSecond, 0), unit: "rows/s", target: { op: ">=", pglite: 50_000, postgres: 100_000 } },
      { metric: "CSV size", value: round(read.bytes / MiB), unit: "MiB" },
      { metric: "RSS before", value: round(before / MiB), unit: "MiB" },
      { metric: "RSS peak during export", value: round(peak / MiB), unit: "MiB" },
      { metric: "RSS growth", value: round((peak - before) / MiB), unit: "MiB", target: { op: "<=", value: 64 } },
    ];
    return {
      metrics,
      storedEvents: dataset.events,
      loadedForThisPart: load ?? null,
      status: read.status,
      rssSamples: samples.length,
    };
  });
}

type ExportRead = { status: number; rows: number; bytes: number; seconds: number; firstByteMs: number };

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
  return { status: response.status, rows: lines - 1, bytes, seconds: (performance.now() - started) / 1000, firstByteMs };
}
