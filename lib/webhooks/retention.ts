import "server-only";
import { lt, sql } from "drizzle-orm";
import { purgeOldAttempts } from "@/lib/auth/throttle";
import { getDb } from "@/lib/db";
import { webhookEvents, webhookRejections } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { errorMessage, logger } from "@/lib/logger";

/** Any fixed number: only one instance purges at a time (the others skip that round). */
const RETENTION_LOCK_ID = 724_117_005;
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export type PurgeResult = { ran: true; events: number; rejections: number; loginAttempts: number } | { ran: false };

/**
 * Deletes events and rejections older than the retention period, in one transaction holding a
 * transaction-scoped advisory lock (pg_try_advisory_xact_lock), so concurrent instances never purge together.
 */
export async function purgeWebhookData(now = new Date(), retentionDays = env().CONSOLE_WEBHOOK_RETENTION_DAYS): Promise<PurgeResult> {
  const db = await getDb();
  const cutoff = new Date(now.getTime() - retentionDays * 24 * 3600 * 1000);
  const result = await db.transaction(async (tx) => {
    const lock = await tx.execute(sql`select pg_try_advisory_xact_lock(${RETENTION_LOCK_ID}) as locked`);
    // Both drivers (node-postgres and PGlite) answer with { rows }.
    const locked = (lock as { rows: Array<{ locked?: boolean }> }).rows[0]?.locked === true;
    if (!locked) return { ran: false } as const;
    // The first purge after a long pause can have much to delete: not cut short by the pool's statement timeout.
    await tx.execute(sql`set local statement_timeout = 0`);
    const events = await tx.delete(webhookEvents).where(lt(webhookEvents.firstReceivedAt, cutoff)).returning({ id: webhookEvents.id });
    const rejections = await tx.delete(webhookRejections).where(lt(webhookRejections.receivedAt, cutoff)).returning({ id: webhookRejections.id });
    return { ran: true, events: events.length, rejections: rejections.length } as const;
  });
  if (!result.ran) return result;
  const loginAttempts = await purgeOldAttempts(now);
  return { ...result, loginAttempts };
}

const state = globalThis as unknown as { __webhookRetentionTimer?: NodeJS.Timeout };

/** Starts the hourly purge in this process (once, also across dev reloads). */
export function startWebhookRetentionJob(): void {
  if (state.__webhookRetentionTimer) return;
  const run = () =>
    purgeWebhookData()
      .then((r) => {
        if (r.ran && r.events + r.rejections + r.loginAttempts > 0) logger.info("retention purge", r);
      })
      .catch((error) => logger.error("retention purge failed", { error: errorMessage(error) }));
  state.__webhookRetentionTimer = setInterval(run, PURGE_INTERVAL_MS);
  state.__webhookRetentionTimer.unref();
  setTimeout(run, 30_000).unref();
}
