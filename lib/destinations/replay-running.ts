import "server-only";

import { and, eq, isNull, sql } from "drizzle-orm";

import { recordAudit, type AuditActor } from "@/lib/audit/audit";
import type { ActionFailure } from "@/lib/call-action";
import { getConnection } from "@/lib/connections/connections";
import { getDb, rowsOf } from "@/lib/db";
import { forwardDestinations, forwardReplays } from "@/lib/db/forwarding-schema";

import { replayIdSchema } from "./schemas";
import type { ReplayProgress } from "./types";

// A replay once started: where it is, and cancelling it (./replay.ts selects, counts and starts one).

/**
 * Where a replay is: how far queuing has gone, and its deliveries counted by state (one indexed read of its own
 * rows).
 */
export async function getReplayProgress(replayId: string): Promise<ReplayProgress | null> {
  if (!replayIdSchema.safeParse({ replayId }).success) return null;
  const db = await getDb();
  const [row] = rowsOf<{
    total: number;
    queued: number;
    queued_at: Date | null;
    cancelled_at: Date | null;
    name: string;
    connection_id: string;
    delivered: number;
    failed: number;
    cancelled: number;
    waiting: number;
  }>(
    await db.execute(sql`
      select r.total, r.queued, r.queued_at, r.cancelled_at, f.name, f.connection_id,
        count(*) filter (where d.state = 'delivered')::int as delivered,
        count(*) filter (where d.state = 'failed')::int as failed,
        count(*) filter (where d.state = 'cancelled')::int as cancelled,
        count(*) filter (where d.state = 'pending')::int as waiting
      from forward_replays r join forward_destinations f on f.id = r.destination_id
      left join forward_deliveries d on d.replay_id = r.id
      where r.id = ${replayId}
      group by r.id, f.id`),
  );
  if (!row) return null;
  const { total, queued, delivered, failed, cancelled, waiting } = row;
  const state = row.cancelled_at ? "cancelled" : !row.queued_at ? "queuing" : waiting > 0 ? "running" : "finished";
  return {
    replayId,
    connectionId: row.connection_id,
    destinationName: row.name,
    total,
    queued,
    delivered,
    failed,
    cancelled,
    waiting,
    state,
  };
}

/** Cancels a replay: its queuing stops and its waiting deliveries are dropped (one under way finishes); audited. */
export async function cancelReplay(
  actor: AuditActor,
  raw: unknown,
): Promise<{ ok: true; cancelled: number } | ActionFailure> {
  const parsed = replayIdSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "Check the request." };
  const { replayId } = parsed.data;
  const db = await getDb();
  const [found] = await db
    .select({ destination: forwardDestinations })
    .from(forwardReplays)
    .innerJoin(forwardDestinations, eq(forwardDestinations.id, forwardReplays.destinationId))
    .where(eq(forwardReplays.id, replayId));
  const connection = found ? await getConnection(found.destination.connectionId) : undefined;
  const gone: ActionFailure = { ok: false, error: "This replay has already been cancelled or no longer exists." };
  if (!found || !connection) return gone;
  return db.transaction(async (tx) => {
    // Waits for a chunk being queued (it holds the row), so the drop below sees that chunk's deliveries;
    // the next chunk finds the replay cancelled and queues nothing.
    const [replay] = await tx
      .update(forwardReplays)
      .set({ cancelledAt: new Date() })
      .where(and(eq(forwardReplays.id, replayId), isNull(forwardReplays.cancelledAt)))
      .returning();
    if (!replay) return gone;
    const [dropped] = rowsOf<{ cancelled: number }>(
      await tx.execute(sql`
        with dropped as (
          update forward_deliveries set state = 'cancelled', finished_at = now(), last_outcome = 'cancelled with its replay'
          where replay_id = ${replayId} and state = 'pending' returning 1
        )
        select count(*)::int as cancelled from dropped`),
    );
    const cancelled = dropped!.cancelled;
    await recordAudit(
      {
        actor,
        action: "destination.replay_cancelled",
        outcome: "success",
        connection,
        target: found.destination.name,
        details: { replayId, cancelled },
      },
      tx,
    );
    return { ok: true as const, cancelled };
  });
}
