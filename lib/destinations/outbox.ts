import "server-only";

import { inArray, sql } from "drizzle-orm";
import { z } from "zod";

import { recordAudit } from "@/lib/audit/audit";
import { getConnection } from "@/lib/connections/connections";
import { getDb, rowsOf } from "@/lib/db";
import { forwardDestinations } from "@/lib/db/forwarding-schema";
import { storedNow } from "@/lib/db/stored-now";
import { countForward, observeDelivered } from "@/lib/metrics/metrics";

import {
  AUTO_PAUSE_HOURS,
  BREAKER_FIRST_PROBE_SECONDS,
  BREAKER_MAX_PROBE_SECONDS,
  BREAKER_THRESHOLD,
  RATE_SPACING,
} from "./constants";

/**
 * The outbox's two statements: taking due deliveries, and writing what their attempts did. Both are
 * one statement each, so they hold no transaction open across the sends, on PGlite or PostgreSQL.
 */

/** How long a taken delivery is this worker's: past it (a crash), another takes it again. Longer than an attempt. */
export const LEASE_SECONDS = 60;

/**
 * Deliveries of one destination under way at once, across every instance: a destination that hangs for
 * the whole attempt holds at most this many, and the rest of the workers' room goes to the others.
 */
export const DESTINATION_IN_FLIGHT = 32;

/**
 * A taken delivery, with its event's stored body (null when the retention period removed the event
 * meanwhile) and signature status, `sendAt`: when its destination's rate cap lets it start (now, without
 * a cap), and its receipt's traceparent (lib/telemetry; null when none), its attempts' spans' parent.
 */
export type TakenDelivery = {
  id: number;
  destinationId: string;
  connectionId: string;
  eventId: string;
  attempts: number;
  body: string | null;
  signatureStatus: string | null;
  sendAt: Date;
  traceParent: string | null;
};

/**
 * Each destination that may take now (on, not paused, its breaker closed or its probe due, something due), with
 * its room: the least of its in-flight allowance and its rate cap's slots left in the next second. Locked for the
 * statement, without holding up an event stored for it.
 */
const roomyDestinations = sql`
  select f.id, f.max_per_second as cap, greatest(coalesce(f.rate_next_at, now()), now()) as slot,
    least(
      case when f.tripped_at is null then ${DESTINATION_IN_FLIGHT} else 1 end
        - (select count(*) from forward_deliveries x
            where x.destination_id = f.id and x.leased_until > ${storedNow})::int,
      case when f.max_per_second is null then ${DESTINATION_IN_FLIGHT}
        else ceil(extract(epoch from now() + interval '1 second' - greatest(coalesce(f.rate_next_at, now()), now()))
          * f.max_per_second / ${RATE_SPACING})::int end
    ) as room
  from forward_destinations f
  where f.enabled and f.paused_at is null and (f.tripped_at is null or f.probe_at <= ${storedNow})
    and exists (select 1 from forward_deliveries d
      where d.destination_id = f.id and d.state = 'pending' and d.due_at <= ${storedNow})
  for no key update of f skip locked`;

/** Each such destination's oldest due deliveries, at most its room, ranked within it (1: its oldest). */
const rankedDue = sql`
  select d.id, d.destination_id, d.connection_id, d.event_id, d.due_at, c.cap, c.slot,
    row_number() over (partition by d.destination_id order by d.due_at, d.id) as rank
  from destinations c cross join lateral (
    select d.id, d.destination_id, d.connection_id, d.event_id, d.due_at from forward_deliveries d
    where d.destination_id = c.id and d.state = 'pending' and d.due_at <= ${storedNow}
    order by d.due_at
    limit greatest(c.room, 0)
    for update of d skip locked
  ) d`;

/** Round robin: every destination's first before any destination's second, up to `limit`. */
const roundRobin = (limit: number) => sql`select * from ranked order by rank, due_at limit ${limit}`;

/**
 * Moves each capped destination's next free slot past those this take reserved: each delivery has its own slot,
 * RATE_SPACING/max_per_second s apart, and is sent at it, so no second sees more than the cap start.
 */
const reserveRateSlots = sql`
  update forward_destinations f
  set rate_next_at = p.slot + make_interval(secs => p.taken * ${RATE_SPACING}::float8 / f.max_per_second)
  from (
    select destination_id, min(slot) as slot, count(*) as taken from picked
    where cap is not null group by destination_id
  ) p
  where f.id = p.destination_id`;

/** Leases the picked deliveries and counts their attempt; answers each with its event's body and its slot. */
const leasePicked = sql`
  update forward_deliveries d set due_at = now() + make_interval(secs => ${LEASE_SECONDS}),
    leased_until = now() + make_interval(secs => ${LEASE_SECONDS}), attempts = d.attempts + 1
  from picked left join webhook_events w on w.connection_id = picked.connection_id and w.event_id = picked.event_id
  where d.id = picked.id
  returning d.id, d.destination_id, d.connection_id, d.event_id, d.attempts, w.raw_body, w.signature_status,
    d.trace_parent, case when picked.cap is null then now()
      else picked.slot + make_interval(secs => (picked.rank - 1) * ${RATE_SPACING}::float8 / picked.cap)
    end as send_at`;

/** A row `leasePicked` answers, as a TakenDelivery: the id is a bigint, the slot a timestamp (a Date or text). */
const takenRow = z
  .object({
    id: z.coerce.number(),
    destination_id: z.string(),
    connection_id: z.string(),
    event_id: z.string(),
    attempts: z.number(),
    raw_body: z.string().nullable(),
    signature_status: z.string().nullable(),
    trace_parent: z.string().nullable(),
    send_at: z.coerce.date(),
  })
  .transform((row): TakenDelivery => ({
    id: row.id,
    destinationId: row.destination_id,
    connectionId: row.connection_id,
    eventId: row.event_id,
    attempts: row.attempts,
    body: row.raw_body,
    signatureStatus: row.signature_status,
    sendAt: row.send_at,
    traceParent: row.trace_parent,
  }));

/**
 * Takes up to `limit` due deliveries, fairly across destinations (round robin, each within its room: in flight,
 * breaker, rate cap), and leases each and counts its attempt, in one statement of the pieces above.
 */
export async function takeDueDeliveries(limit: number): Promise<TakenDelivery[]> {
  const db = await getDb();
  const taken = await db.execute(sql`
    with destinations as (${roomyDestinations}), ranked as (${rankedDue}), picked as (${roundRobin(limit)}),
      paced as (${reserveRateSlots}) ${leasePicked}`);
  return rowsOf(taken, takenRow);
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
  /** False for a failure that says nothing of the destination (its event gone, a refusal): left out of its breaker. */
  countsAgainstDestination?: false;
  /** What the delivery becomes: delivered, failed for good, or pending again after `retrySeconds`. */
  next: { state: "delivered" | "failed" } | { state: "pending"; retrySeconds: number };
};

/** The batch's attempts as rows (`attemptRows`), but those of deliveries removed while they were being sent. */
const batchAttempts = (rows: string) => sql`
  select r.* from json_to_recordset(${rows}::json) as r(delivery_id bigint, destination_id uuid, started_at timestamptz,
    latency_ms int, status int, ok boolean, outcome text, response_body text, counts boolean, state text,
    retry_seconds int)
  join forward_deliveries d on d.id = r.delivery_id`;

/** Keeps each attempt, what came back or why nothing did. */
const insertAttempts = sql`
  insert into forward_attempts (delivery_id, destination_id, started_at, latency_ms, status, ok, outcome, response_body)
  select delivery_id, destination_id, started_at, latency_ms, status, ok, outcome, response_body from r`;

/** Moves each delivery on and ends its lease; answers, for each it delivered, the time from its queueing. */
const moveDeliveries = sql`
  -- One cancelled while it was being sent (its replay cancelled) stays cancelled; its attempt is recorded.
  update forward_deliveries d set leased_until = null,
    state = case when d.state = 'pending' then r.state::forward_delivery_state else d.state end,
    last_outcome = case when d.state = 'pending' then r.outcome else d.last_outcome end,
    due_at = case when d.state = 'pending' and r.state = 'pending' then now() + make_interval(secs => r.retry_seconds)
      else d.due_at end,
    finished_at = case when d.state <> 'pending' then d.finished_at when r.state = 'pending' then null else now() end
  from r where d.id = r.delivery_id
  -- Delivered by this statement (finished now, not before: a delivery sent twice past its lease counts
  -- once), now as the millisecond column holds it.
  returning d.destination_id, d.origin,
    case when d.state = 'delivered' and d.finished_at = ${storedNow}
      then extract(epoch from d.finished_at - d.created_at)::float8 end as lag_seconds`;

/** Per destination, of the attempts that count against it: the last delivered, the first failed, how many failed. */
const runsPerDestination = sql`
  select destination_id, max(started_at) filter (where ok) as last_ok_at,
    min(started_at) filter (where not ok) as first_failed_at, count(*) filter (where not ok) as failed
  from r where counts group by destination_id`;

/** Per destination, the failed attempts after its last delivered one in this batch: how many, from when. */
const failuresSinceLastOk = sql`
  select runs.destination_id, runs.last_ok_at,
    (select count(*) from r where r.counts and r.destination_id = runs.destination_id and not r.ok
      and r.started_at > runs.last_ok_at) as failed_after,
    (select min(r.started_at) from r where r.counts and r.destination_id = runs.destination_id and not r.ok
      and r.started_at > runs.last_ok_at) as failing_from
  from runs`;

/** Each destination's failures in a row and failing-since: added to its own without a delivered attempt, else anew. */
const breakerOutcome = sql`
  select f.id,
    case when runs.last_ok_at is null then f.consecutive_failures + runs.failed
      else since_ok.failed_after end as consecutive,
    case when runs.last_ok_at is null then coalesce(f.failing_since, runs.first_failed_at)
      else since_ok.failing_from end as failing_since,
    case when runs.last_ok_at is null then f.tripped_at end as tripped_at
  from forward_destinations f join runs on runs.destination_id = f.id join since_ok on since_ok.destination_id = f.id`;

/** Trips (or keeps tripped) at BREAKER_THRESHOLD failures, the next probe as far off as it has been; else closes. */
const updateBreakers = sql`
  update forward_destinations f
  set failing_since = outcome.failing_since, consecutive_failures = outcome.consecutive,
    tripped_at = case when outcome.consecutive >= ${BREAKER_THRESHOLD} then coalesce(outcome.tripped_at, now()) end,
    probe_at = case when outcome.consecutive >= ${BREAKER_THRESHOLD} then now() + make_interval(secs =>
      least(${BREAKER_MAX_PROBE_SECONDS},
        greatest(${BREAKER_FIRST_PROBE_SECONDS}, extract(epoch from now() - coalesce(outcome.tripped_at, now()))))) end
  from outcome where f.id = outcome.id`;

/** A delivery `moveDeliveries` delivered: its destination, its origin and the seconds from its queueing. */
const deliveredRow = z.object({ destination_id: z.string(), origin: z.string(), lag_seconds: z.coerce.number() });
type Delivered = z.output<typeof deliveredRow>;

/** The batch as `batchAttempts` reads it: one JSON array of rows. */
function attemptRows(records: readonly AttemptRecord[]): string {
  return JSON.stringify(
    records.map((r) => ({
      delivery_id: r.deliveryId,
      destination_id: r.destinationId,
      started_at: r.startedAt.toISOString(),
      latency_ms: r.latencyMs,
      status: r.status,
      ok: r.ok,
      outcome: r.outcome,
      response_body: r.responseBody,
      counts: r.countsAgainstDestination ?? true,
      state: r.next.state,
      retry_seconds: r.next.state === "pending" ? r.next.retrySeconds : null,
    })),
  );
}

/**
 * Writes a batch's attempts, moves each delivery on and keeps each destination's failing-since and breaker, in one
 * statement of the pieces above; then pauses, audited, each destination failing for AUTO_PAUSE_HOURS.
 */
export async function recordAttempts(records: readonly AttemptRecord[]): Promise<void> {
  if (records.length === 0) return;
  const db = await getDb();
  const result = await db.execute(sql`
    with r as (${batchAttempts(attemptRows(records))}), attempts as (${insertAttempts}),
      deliveries as (${moveDeliveries}), runs as (${runsPerDestination}), since_ok as (${failuresSinceLastOk}),
      outcome as (${breakerOutcome}), breakers as (${updateBreakers})
    select destination_id, origin, lag_seconds from deliveries where lag_seconds is not null`);
  countAttempts(records, rowsOf(result, deliveredRow));
  const failing = records.filter((r) => !r.ok && r.countsAgainstDestination !== false);
  if (failing.length > 0) await pauseLongFailing([...new Set(failing.map((r) => r.destinationId))]);
}

/** Counts the recorded attempts by outcome, and times each delivery they delivered from its queueing. */
function countAttempts(records: readonly AttemptRecord[], delivered: readonly Delivered[]): void {
  for (const r of records)
    countForward(r.destinationId, r.ok ? "delivered" : r.next.state === "failed" ? "failed" : "retrying");
  for (const d of delivered) observeDelivered(d.destination_id, d.origin, d.lag_seconds);
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
    .returning({
      id: forwardDestinations.id,
      name: forwardDestinations.name,
      connectionId: forwardDestinations.connectionId,
      failingSince: forwardDestinations.failingSince,
    });
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
