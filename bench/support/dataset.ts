/**
 * The stored webhook history the query, export and page parts read: 20 connections of skewed size, bulk-loaded
 * (tooling/bulk-load.ts). Loading a million events takes minutes on PGlite, so one backend's parts share one
 * dataset, which the query part builds in two steps to measure growth.
 */
import { sql } from "drizzle-orm";

import { bulkLoad, insertBulkConnections, type BulkConnection } from "@/tooling/bulk-load";

import { rowsOf, withDatabase, type Scenario } from "../reliability/server";
import { benchScenario, seedBenchUser } from "./console";

/** Events at full size; BENCH_EVENTS=100000 for a quick run while developing. */
export const FULL_EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
export const CONNECTIONS = 20;

export type Dataset = {
  scenario: Scenario;
  /** Largest first; the first by name ("Tenant 01") is also the switcher's default connection. */
  connections: BulkConnection[];
  events: number;
  loads: number;
  dispose: () => Promise<void>;
};

export type LoadFigures = {
  events: number;
  loadSeconds: number;
  vacuumAnalyzeSeconds: number;
  rows: number;
  tableBytes: number;
  bytesPerEvent: number;
};

/** An empty dataset: connections and the bench user, no events. */
export async function createDataset(name: string): Promise<Dataset> {
  const scenario = await benchScenario(name);
  const connections = await withDatabase(scenario, async (db) => {
    const created = await insertBulkConnections(db, CONNECTIONS);
    await seedBenchUser();
    return created;
  });
  return { scenario, connections, events: 0, loads: 0, dispose: scenario.dispose };
}

/**
 * Adds `count` events (PGlite: only while no console holds the directory), then what autovacuum does on
 * a live server (planner statistics, the visibility map), and measures the table's size on disk.
 */
export async function appendEvents(dataset: Dataset, count: number): Promise<LoadFigures> {
  return withDatabase(dataset.scenario, async (db) => {
    if (dataset.loads > 0) {
      // bulkLoad names test events by row number alone (not by idPrefix), so a second load would repeat
      // the first one's test event ids on the same connections: the earlier ones are renamed first.
      await db.execute(
        sql`update webhook_events set event_id = event_id || '-load' || ${String(dataset.loads)} where is_test`,
      );
    }
    const load = await bulkLoad(db, {
      connections: dataset.connections,
      events: count,
      idPrefix: `bulk${dataset.loads}-`,
    });
    const vacuumStarted = performance.now();
    await db.execute(sql`vacuum analyze webhook_events`);
    await db.execute(sql`vacuum analyze webhook_rejections`);
    const vacuumAnalyzeSeconds = (performance.now() - vacuumStarted) / 1000;
    dataset.events += count;
    dataset.loads += 1;
    const [size] = rowsOf<{ rows: string; bytes: string }>(
      // The table is partitioned by month: its size is its partitions' (the parent holds no rows).
      await db.execute(sql`select (select count(*) from webhook_events)::bigint as rows,
        (select sum(pg_total_relation_size(relid)) from pg_partition_tree('webhook_events')) as bytes`),
    );
    const rows = Number(size!.rows);
    const tableBytes = Number(size!.bytes);
    return {
      events: dataset.events,
      loadSeconds: round1(load.seconds),
      vacuumAnalyzeSeconds: round1(vacuumAnalyzeSeconds),
      rows,
      tableBytes,
      bytesPerEvent: Math.round(tableBytes / rows),
    };
  });
}

let shared: Dataset | undefined;

/** Leaves the dataset for the next parts on this backend (disposed by disposeSharedDataset). */
export function shareDataset(dataset: Dataset): void {
  shared = dataset;
}

/** The shared dataset when it holds `events`, else a new one loaded in one step (and then shared). */
export async function sharedDataset(events: number, name: string): Promise<{ dataset: Dataset; load?: LoadFigures }> {
  if (shared?.events === events) return { dataset: shared };
  await disposeSharedDataset();
  const dataset = await createDataset(name);
  try {
    console.log(`Loading ${events.toLocaleString("en")} events…`);
    const load = await appendEvents(dataset, events);
    shareDataset(dataset);
    return { dataset, load };
  } catch (error) {
    await dataset.dispose();
    throw error;
  }
}

export async function disposeSharedDataset(): Promise<void> {
  const dataset = shared;
  shared = undefined;
  await dataset?.dispose();
}

const round1 = (n: number) => Math.round(n * 10) / 10;
