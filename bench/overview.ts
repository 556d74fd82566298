/**
 * The overview part: each query of the overview page and one alert evaluation, in-process at 1,000,000 events on
 * PGlite or a fresh PostgreSQL database (docs/performance.md, "Results" and "Alerts").
 * Results: bench/results/overview.json, under "pglite" or "postgres" (a run keeps the other's figures).
 */
import os from "node:os";

import { sql } from "drizzle-orm";

import { bulkLoad, insertBulkConnections } from "@/tooling/bulk-load";

import { machine, readResult, timeRuns, writeResult, type Timing } from "./support/timing";

const STORED_EVENTS = Number(process.env.BENCH_OVERVIEW_EVENTS ?? 1_000_000);
const CONNECTIONS = 20;
const QUERY_RUNS = Number(process.env.BENCH_OVERVIEW_RUNS ?? 40);
const TARGET_P95_MS = 50;

export async function runOverviewBench(): Promise<void> {
  const { setUpTestDatabase } = await import("@/lib/testing/database");
  const overview = await import("@/lib/overview/overview");
  const { evaluateAlerts } = await import("@/lib/alerts/evaluate");
  const onPostgres = Boolean(process.env.DATABASE_URL);
  const { db, tearDown } = await setUpTestDatabase();
  try {
    const connections = await insertBulkConnections(db, CONNECTIONS);
    console.log(
      `Loading ${STORED_EVENTS.toLocaleString("en")} events into ${onPostgres ? "PostgreSQL" : "PGlite (in memory)"}…`,
    );
    const load = await bulkLoad(db, { connections, events: STORED_EVENTS });
    const vacuumStarted = performance.now();
    // What autovacuum does on a live server: statistics for the planner, and the visibility map that
    // lets an index-only scan skip the table.
    await db.execute(sql`vacuum analyze webhook_events`);
    await db.execute(sql`vacuum analyze webhook_rejections`);
    const vacuumSeconds = (performance.now() - vacuumStarted) / 1000;
    console.log(
      `Loaded in ${load.seconds.toFixed(1)} s (${load.rejections.toLocaleString("en")} rejections), vacuum analyze ${vacuumSeconds.toFixed(1)} s.`,
    );

    const largest = connections[0]!.id;
    const health = await overview.getConnectionHealth();
    const queries: Record<string, () => Promise<unknown>> = {
      "connection health, every connection": () => overview.getConnectionHealth(),
      "connection health, one connection": () => overview.getConnectionHealth([largest]),
      // Its events come from the health just read; its own query counts the refusals.
      "headline totals": () => overview.getOverviewTotals(health),
      "expired per hour, 7 days": () => overview.getExpiredPerHour(),
      "delay histogram, 7 days": () => overview.getDelayHistogram(),
      "rejections per day, 7 days": () => overview.getRejectionsPerDay(),
      "expired today (latest 8)": () => overview.getRecentExpiries(),
    };
    const machineBefore = machine(onPostgres ? `PostgreSQL ${await serverVersion(db)}` : "PGlite (in memory)");
    const timings: Record<string, Timing & { withinTarget: boolean }> = {};
    for (const [name, run] of Object.entries(queries)) {
      const timing = await timeRuns(QUERY_RUNS, run);
      timings[name] = { ...timing, withinTarget: timing.p95Ms <= TARGET_P95_MS };
    }
    // The page runs its sections at once; on PGlite (one connection) they queue, on PostgreSQL they overlap.
    const wholePage = await timeRuns(QUERY_RUNS, () => Promise.all(Object.values(queries).map((run) => run())));
    const alertEvaluation = await timeRuns(QUERY_RUNS, () => evaluateAlerts());

    const window = await overview.getExpiredPerHour();
    const result = {
      at: new Date().toISOString(),
      // The load average before and after the timed runs: on a shared machine, other work slows every query.
      machine: { ...machineBefore, loadAverage1mAfter: machine("").loadAverage1m },
      data: {
        storedEvents: STORED_EVENTS,
        connections: CONNECTIONS,
        rejections: load.rejections,
        expiredEventsInTheLast7Days: window.total,
        loadSeconds: Math.round(load.seconds * 10) / 10,
        vacuumAnalyzeSeconds: Math.round(vacuumSeconds * 10) / 10,
      },
      targetP95Ms: TARGET_P95_MS,
      queries: timings,
      wholePageAllSectionsAtOnce: wholePage,
      alertEvaluation,
    };
    writeResult("overview", { ...readResult("overview"), [onPostgres ? "postgres" : "pglite"]: result });
    printTable(result.machine.database, timings, wholePage);
    console.log(
      `One alert evaluation (every condition, ${CONNECTIONS} connections): p50 ${alertEvaluation.p50Ms.toFixed(1)} ms, p95 ${alertEvaluation.p95Ms.toFixed(1)} ms.`,
    );
  } finally {
    await tearDown();
  }
}

async function serverVersion(
  db: Awaited<ReturnType<typeof import("@/lib/testing/database").setUpTestDatabase>>["db"],
): Promise<string> {
  const result = (await db.execute(sql`show server_version`)) as unknown as { rows: Array<{ server_version: string }> };
  return result.rows[0]?.server_version ?? "unknown";
}

function printTable(
  database: string,
  timings: Record<string, Timing & { withinTarget: boolean }>,
  wholePage: Timing,
): void {
  const rows = Object.entries(timings).map(([name, t]) => [
    name,
    t.p50Ms.toFixed(1),
    t.p95Ms.toFixed(1),
    t.maxMs.toFixed(1),
    t.withinTarget ? "yes" : "NO",
  ]);
  rows.push([
    "whole page (all sections at once)",
    wholePage.p50Ms.toFixed(1),
    wholePage.p95Ms.toFixed(1),
    wholePage.maxMs.toFixed(1),
    "—",
  ]);
  const header = ["overview query", "p50 ms", "p95 ms", "max ms", `p95 ≤ ${TARGET_P95_MS} ms`];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(
    `\nOverview at ${STORED_EVENTS.toLocaleString("en")} stored events, ${database}, ${QUERY_RUNS} runs each (load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs):`,
  );
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows) console.log(line(row));
  const missed = Object.entries(timings).filter(([, t]) => !t.withinTarget);
  console.log(
    missed.length === 0
      ? `Every query within the target.`
      : `Over the target: ${missed.map(([name]) => name).join(", ")}.`,
  );
}
