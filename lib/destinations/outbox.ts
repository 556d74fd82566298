import "server-only";
import { inArray, sql } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/audit";
import { getConnection } from "@/lib/connections/connections";
import { getDb } from "@/lib/db";
import { forwardDestinations } from "@/lib/db/forwarding-schema";
import { AUTO_PAUSE_HOURS } from "./constants";

/**
 * The outbox's two statements: taking due deliveries, and writing what their attempts did. Both are
 * one statement each, so they hold no transaction open across the sends, on PGlite or PostgreSQL.
 */

/** How long a taken delivery is this worker's: past it (a crash), another takes it again. Longer than an attempt (10 s) can last. */
export const LEASE_SECONDS = 60;

/** A taken delivery, with its event's stored body (null when the retention period removed the event meanwhile). */
export type TakenDelivery = { id: number; destinationId: string; connectionId: string; eventId: string; attempts: number; body: string | null; signatureStatus: string | null };

/**
 * Takes up to `limit` due deliveries of destinations that are on and not paused, oldest due first:
 * each is leased (its due time moved past the lease) and its attempt counted in the statement that
 * finds it, and rows another worker is taking at that moment are skipped (FOR UPDATE SKIP LOCKED),
 * so two workers, in one console or in several, never send one delivery at once. The same statement
 * reads each event's stored body, the bytes to forward.
 */
export async function takeDueDeliveries(limit: number): Promise<TakenDelivery[]> {
  const db = await getDb();
  const taken = (await db.execute(sql`
    with due as (
      select d.id, d.connection_id, d.event_id from forward_deliveries d
      join forward_destinations f on f.id = d.destination_id
      where d.state = 'pending' and d.due_at <= now() and f.enabled and f.paused_at is null
      order by d.due_at
      limit ${limit}
      for update of d skip locked
    )
    update forward_deliveries d set due_at = now() + make_interval(secs => ${LEASE_SECONDS}), attempts = d.attempts + 1
    from due left join webhook_events w on w.connection_id = due.connection_id and w.event_id = due.event_id
    where d.id = due.id
    returning d.id, d.destination_id, d.connection_id, d.event_id, d.attempts, w.raw_body, w.signature_status`)) as unknown as {
    rows: Array<{ id: string | number; destination_id: string; connection_id: string; event_id: string; attempts: number; raw_body: string | null; signature_status: string | null }>;
  };
  return taken.rows.map((row) => ({
    id: Number(row.id),
    destinationId: row.destination_id,
    connectionId: row.connection_id,
    eventId: row.event_id,
    attempts: row.attempts,
    body: row.raw_body,
    signatureStatus: row.signature_status,
  }));
}

export type AttemptRecord = {
  deliveryId: number;
  destinationId: string;
  startedAt: Date;
  latencyMs: number;
  status: number | null;
  ok: boolean;
  outcome: string;
  responseBody: string | null;
  /** What the delivery becomes: delivered, failed for good, or pending again after `retrySeconds`. */
  next: { state: "delivered" | "failed" } | { state: "pending"; retrySeconds: number };
};

/**
 * Writes a batch's attempts, moves each delivery on, and keeps each destination's failing-since time
 * (cleared by a delivered attempt, set by the first failed one), in one statement; a delivery removed
 * while it was being sent (its destination removed) is skipped. Then pauses, with an audit record,
 * each destination that has been failing for AUTO_PAUSE_HOURS.
 */
export async function recordAttempts(records: readonly AttemptRecord[]): Promise<void> {
  if (records.length === 0) return;
  const db = await getDb();
  const rows = JSON.stringify(
    records.map((r) => ({
      delivery_id: r.deliveryId,
      destination_id: r.destinationId,
      started_at: r.startedAt.toISOString(),
      latency_ms: r.latencyMs,
      status: r.status,
      ok: r.ok,
      outcome: r.outcome,
      response_body: r.responseBody,
      state: r.next.state,
      retry_seconds: r.next.state === "pending" ? r.next.retrySeconds : null,
    })),
  );
  await db.execute(sql`
    with r as (
      select r.* from json_to_recordset(${rows}::json) as r(delivery_id bigint, destination_id uuid, started_at timestamptz, latency_ms int,
        status int, ok boolean, outcome text, response_body text, state text, retry_seconds int)
      join forward_deliveries d on d.id = r.delivery_id
    ), attempts as (
      insert into forward_attempts (delivery_id, destination_id, started_at, latency_ms, status, ok, outcome, response_body)
      select delivery_id, destination_id, started_at, latency_ms, status, ok, outcome, response_body from r
    ), deliveries as (
      update forward_deliveries d set state = r.state::forward_delivery_state, last_outcome = r.outcome,
        due_at = case when r.state = 'pending' then now() + make_interval(secs => r.retry_seconds) else d.due_at end,
        finished_at = case when r.state = 'pending' then null else now() end
      -- One cancelled while it was being sent (its replay cancelled) stays cancelled; its attempt is recorded.
      from r where d.id = r.delivery_id and d.state = 'pending'
    )
    update forward_destinations f set failing_since = case when latest.ok then null else coalesce(f.failing_since, latest.started_at) end
    from (select distinct on (destination_id) destination_id, ok, started_at from r order by destination_id, started_at desc) latest
    where f.id = latest.destination_id`);
  if (records.some((r) => !r.ok)) await pauseLongFailing([...new Set(records.filter((r) => !r.ok).map((r) => r.destinationId))]);
}

async function pauseLongFailing(destinationIds: string[]): Promise<void> {
  const db = await getDb();
  const paused = await db
    .update(forwardDestinations)
    .set({ pausedAt: sql`now()` })
    .where(
      sql`${inArray(forwardDestinations.id, destinationIds)} and ${forwardDestinations.pausedAt} is null
        and ${forwardDestinations.failingSince} <= now() - make_interval(hours => ${AUTO_PAUSE_HOURS})`,
    )
    .returning({ id: forwardDestinations.id, name: forwardDestinations.name, connectionId: forwardDestinations.connectionId, failingSince: forwardDestinations.failingSince });
  for (const destination of paused) {
    const connection = await getConnection(destination.connectionId);
    await recordAudit({
      actor: { id: null, email: null },
      action: "destination.paused",
      outcome: "success",
      connection: connection && { id: connection.id, name: connection.name },
      target: destination.name,
      details: { reason: `every attempt failed for ${AUTO_PAUSE_HOURS} h`, failingSince: destination.failingSince },
    });
  }
}
