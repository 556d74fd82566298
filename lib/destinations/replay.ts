import "server-only";
import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import { recordAudit, type AuditActor } from "@/lib/audit/audit";
import { getConnection } from "@/lib/connections/connections";
import { getDb } from "@/lib/db";
import { forwardDestinations, forwardReplays } from "@/lib/db/forwarding-schema";
import { parseEventFilters, replayCondition } from "@/lib/webhooks/webhooks";
import { findDestination, GONE } from "./destinations";
import { replayIdSchema, replayInputSchema, type ReplayInput } from "./schemas";
import type { ReplayProgress } from "./types";
import { wakeForwarding } from "./worker";

/**
 * Replay from the log: the events the log's filters select (one connection's, never a test event),
 * queued to one of that connection's destinations in one INSERT … SELECT, then sent by the workers like
 * any delivery. Its size is shown before it starts; its progress is its deliveries' states; cancelling
 * drops those still waiting.
 */

type Failure = { ok: false; error: string };
type Selection = { ok: true; destination: typeof forwardDestinations.$inferSelect; connection: { id: string; name: string }; condition: SQL; filters: string };

async function select(raw: ReplayInput): Promise<Selection | Failure> {
  const parsed = replayInputSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "Check the request." };
  const { connectionId, destinationId, filters } = parsed.data;
  const parsedFilters = parseEventFilters(new URLSearchParams(filters));
  if (!parsedFilters.ok) return { ok: false, error: `The log's filters cannot be read: ${parsedFilters.errorDescription}.` };
  const found = await findDestination(connectionId, destinationId);
  if (!found) return GONE;
  return { ok: true, destination: found.row, connection: found.connection, condition: replayCondition(parsedFilters.filters, connectionId), filters };
}

const firstRow = <T>(result: unknown) => (result as { rows: T[] }).rows[0];

/** How many events a replay of these filters would queue. */
export async function countReplay(raw: ReplayInput): Promise<{ ok: true; count: number } | Failure> {
  const selection = await select(raw);
  if (!selection.ok) return selection;
  const db = await getDb();
  const row = firstRow<{ count: number }>(await db.execute(sql`select count(*)::int as count from webhook_events where ${selection.condition}`));
  return { ok: true, count: row?.count ?? 0 };
}

/** Queues the selected events to the destination, in one statement with the replay's row and its audit record. */
export async function startReplay(actor: AuditActor, raw: ReplayInput): Promise<{ ok: true; replayId: string; total: number } | Failure> {
  const selection = await select(raw);
  if (!selection.ok) return selection;
  const { destination, connection, condition, filters } = selection;
  if (!destination.enabled) return { ok: false, error: `${destination.name} is off: turn it on to replay to it.` };
  const db = await getDb();
  const replayId = crypto.randomUUID();
  const total = await db.transaction(async (tx) => {
    await tx.insert(forwardReplays).values({ id: replayId, destinationId: destination.id, filters, total: 0, createdBy: actor.id });
    const queued = firstRow<{ total: number }>(
      await tx.execute(sql`
        with queued as (
          insert into forward_deliveries (destination_id, connection_id, event_id, origin, replay_id)
          select ${destination.id}, connection_id, event_id, 'replay', ${replayId} from webhook_events where ${condition}
          returning 1
        )
        select count(*)::int as total from queued`),
    )!.total;
    await tx.update(forwardReplays).set({ total: queued }).where(eq(forwardReplays.id, replayId));
    await recordAudit(
      { actor, action: "destination.replay_started", outcome: "success", connection, target: destination.name, details: { replayId, events: queued, filters } },
      tx,
    );
    return queued;
  });
  wakeForwarding();
  return { ok: true, replayId, total };
}

/** Where a replay is: its deliveries counted by state (one indexed read of its own rows). */
export async function getReplayProgress(replayId: string): Promise<ReplayProgress | null> {
  if (!replayIdSchema.safeParse({ replayId }).success) return null;
  const db = await getDb();
  const row = firstRow<{ total: number; cancelled_at: Date | null; name: string; connection_id: string; delivered: number; failed: number; cancelled: number; waiting: number }>(
    await db.execute(sql`
      select r.total, r.cancelled_at, f.name, f.connection_id,
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
  return {
    replayId,
    connectionId: row.connection_id,
    destinationName: row.name,
    total: row.total,
    delivered: row.delivered,
    failed: row.failed,
    cancelled: row.cancelled,
    waiting: row.waiting,
    state: row.cancelled_at ? "cancelled" : row.waiting > 0 ? "running" : "finished",
  };
}

/** Cancels a replay: its deliveries still waiting are dropped (one under way finishes); audited. */
export async function cancelReplay(actor: AuditActor, raw: unknown): Promise<{ ok: true; cancelled: number } | Failure> {
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
  const gone: Failure = { ok: false, error: "This replay has already been cancelled or no longer exists." };
  if (!found || !connection) return gone;
  return db.transaction(async (tx) => {
    const [replay] = await tx
      .update(forwardReplays)
      .set({ cancelledAt: new Date() })
      .where(and(eq(forwardReplays.id, replayId), isNull(forwardReplays.cancelledAt)))
      .returning();
    if (!replay) return gone;
    const cancelled = firstRow<{ cancelled: number }>(
      await tx.execute(sql`
        with dropped as (
          update forward_deliveries set state = 'cancelled', finished_at = now(), last_outcome = 'cancelled with its replay'
          where replay_id = ${replayId} and state = 'pending' returning 1
        )
        select count(*)::int as cancelled from dropped`),
    )!.cancelled;
    await recordAudit(
      { actor, action: "destination.replay_cancelled", outcome: "success", connection, target: found.destination.name, details: { replayId, cancelled } },
      tx,
    );
    return { ok: true as const, cancelled };
  });
}
