import "server-only";

import { sql } from "drizzle-orm";

import { getDb, rowsOf, targetFromEnv, type Executor } from "@/lib/db";
import { databaseErrorCode, isUniqueViolation } from "@/lib/error-message";

/**
 * webhook_events is partitioned by UTC month of receipt (migration 0005), `webhook_events_YYYY_MM`, with no catch-all
 * partition, so a month's partition must exist before its first row: made ahead for this month and the next, and on
 * demand when an insert finds none (store.ts). Why: docs/webhooks.md, "Retention".
 */

const PARTITION_NAME = /^webhook_events_(\d{4})_(\d{2})$/;

const monthStart = (at: Date) => Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1);
const nextMonthStart = (at: Date) => Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);

/**
 * Creates the partitions of every month from `from` to `to` (both included) that do not exist yet; returns their
 * names, in order.
 */
export async function ensureEventPartitions(from: Date, to: Date = from, db?: Executor): Promise<string[]> {
  const executor = db ?? (await getDb());
  const names: string[] = [];
  for (let month = monthStart(from); month <= to.getTime(); month = nextMonthStart(new Date(month))) {
    try {
      const [created] = rowsOf<{ name: string }>(
        await executor.execute(
          sql`select webhook_events_create_partition(${new Date(month).toISOString()}::timestamptz) as name`,
        ),
      );
      names.push(created!.name);
    } catch (error) {
      // Another instance created it at the same moment: it exists, which is all this asked.
      if (databaseErrorCode(error) !== "42P07" && !isUniqueViolation(error)) throw error;
    }
  }
  return names;
}

/** This month's partition and the next one's, so deliveries never wait for one; returns their names. */
export const ensureUpcomingPartitions = (now = new Date()) => ensureEventPartitions(now, new Date(nextMonthStart(now)));

/** The partitions for the months of these receipt times (an insert found none for one of them). */
export async function ensurePartitionsFor(times: Date[]): Promise<void> {
  for (const month of new Set(times.map(monthStart))) await ensureEventPartitions(new Date(month));
}

/** "No partition of relation … found for row": the insert's month has no partition yet. */
export const isMissingPartition = (error: unknown) => databaseErrorCode(error) === "23514";

/**
 * Drops the partitions of the months that ended before `cutoff`, each first detached CONCURRENTLY on PostgreSQL (so
 * `db` must be outside any transaction; a detach cut short is finished first), at once on PGlite's one connection.
 * Returns each partition dropped with the events it held, counted once detached.
 */
export async function dropEventPartitionsBefore(
  cutoff: Date,
  db: Executor,
): Promise<Array<{ name: string; events: number }>> {
  const partitions = rowsOf<{ name: string; pending: boolean }>(
    await db.execute(sql`
    select c.relname as name, i.inhdetachpending as pending from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'webhook_events'::regclass order by c.relname`),
  );
  const concurrently = targetFromEnv().kind === "postgres";
  const dropped: Array<{ name: string; events: number }> = [];
  for (const { name, pending } of partitions) {
    const match = PARTITION_NAME.exec(name);
    if (!match || Date.UTC(Number(match[1]), Number(match[2]), 1) > cutoff.getTime()) continue;
    if (pending) await db.execute(sql.raw(`alter table webhook_events detach partition "${name}" finalize`));
    else if (concurrently)
      await db.execute(sql.raw(`alter table webhook_events detach partition "${name}" concurrently`));
    const [count] = rowsOf<{ n: number }>(await db.execute(sql.raw(`select count(*)::int as n from "${name}"`)));
    await db.execute(sql.raw(`drop table "${name}"`));
    dropped.push({ name, events: count!.n });
  }
  return dropped;
}
