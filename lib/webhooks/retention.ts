import "server-only";

import { lt, sql } from "drizzle-orm";

import { purgeOldGuesses } from "@/lib/auth/api-token-throttle";
import { purgeOldAttempts } from "@/lib/auth/lockouts";
import { startBackgroundJob } from "@/lib/background-job";
import { getDb, rowsOf, targetFromEnv, withOwnConnection } from "@/lib/db";
import { forwardDeliveries } from "@/lib/db/forwarding-schema";
import { webhookEvents, webhookRejections } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { errorMessage } from "@/lib/error-message";
import { logger } from "@/lib/logger";

import { dropEventPartitionsBefore, ensureUpcomingPartitions } from "./partitions";

/** Any fixed number: only one instance purges at a time (the others skip that round). */
const RETENTION_LOCK_ID = 724_117_005;
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export type PurgeResult =
  | {
      ran: true;
      events: number;
      rejections: number;
      deliveries: number;
      loginAttempts: number;
      tokenGuesses: number;
      partitionsDropped: string[];
    }
  | { ran: false };

/**
 * Removes events and rejections older than the retention period, holding a session-level advisory lock on a
 * connection of its own so that instances never purge together: first whole months of partitions (partitions.ts),
 * then the rows left before the cutoff, about an hour's worth. `events` counts both.
 */
export function purgeWebhookData(
  now = new Date(),
  retentionDays = env().CONSOLE_WEBHOOK_RETENTION_DAYS,
): Promise<PurgeResult> {
  const cutoff = new Date(now.getTime() - retentionDays * 24 * 3600 * 1000);
  return withOwnConnection(async (db): Promise<PurgeResult> => {
    const [lock] = rowsOf<{ locked?: boolean }>(
      await db.execute(sql`select pg_try_advisory_lock(${RETENTION_LOCK_ID}) as locked`),
    );
    if (lock?.locked !== true) return { ran: false };
    try {
      // The first purge after a long pause can have much to delete: not cut short by the pool's statement timeout.
      await db.execute(sql`set statement_timeout = 0`);
      const dropped = await dropEventPartitionsBefore(cutoff, db);
      const events = await db
        .delete(webhookEvents)
        .where(lt(webhookEvents.firstReceivedAt, cutoff))
        .returning({ id: webhookEvents.id });
      const rejections = await db
        .delete(webhookRejections)
        .where(lt(webhookRejections.receivedAt, cutoff))
        .returning({ id: webhookRejections.id });
      // Forwards of events as old (their attempts go with them): by then each was delivered or failed long ago.
      const deliveries = await db
        .delete(forwardDeliveries)
        .where(lt(forwardDeliveries.createdAt, cutoff))
        .returning({ id: forwardDeliveries.id });
      return {
        ran: true,
        events: dropped.reduce((n, partition) => n + partition.events, events.length),
        rejections: rejections.length,
        deliveries: deliveries.length,
        loginAttempts: await purgeOldAttempts(now),
        tokenGuesses: await purgeOldGuesses(now),
        partitionsDropped: dropped.map((partition) => partition.name),
      };
    } finally {
      await db.execute(sql`reset statement_timeout`);
      await db.execute(sql`select pg_advisory_unlock(${RETENTION_LOCK_ID})`);
    }
  });
}

/**
 * The hourly upkeep: this month's and next month's partitions made ahead, so deliveries never wait for
 * one; on PGlite, which has no autovacuum, fresh planner statistics for this month's partition (the
 * one that changes; a sample of it, a fraction of a second); then the purge.
 */
export async function maintainWebhookData(now = new Date()): Promise<PurgeResult> {
  const [current] = await ensureUpcomingPartitions(now);
  if (current && targetFromEnv().kind === "pglite") await (await getDb()).execute(sql.raw(`analyze "${current}"`));
  return purgeWebhookData(now);
}

/**
 * Starts the hourly upkeep in this process (once, also across dev reloads), the first 30 s after the start; a stop
 * waits for a purge under way (lib/background-job.ts).
 */
export function startWebhookRetentionJob(): void {
  const run = () =>
    maintainWebhookData()
      .then((r) => {
        if (
          r.ran &&
          r.events + r.rejections + r.deliveries + r.loginAttempts + r.tokenGuesses + r.partitionsDropped.length > 0
        )
          logger.info("retention purge", r);
      })
      .catch((error) => logger.error("retention purge failed", { error: errorMessage(error) }));
  startBackgroundJob("webhooks.retention", { everyMs: PURGE_INTERVAL_MS, firstMs: 30_000, run });
}
