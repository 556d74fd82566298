import "server-only";

import { and, inArray, sql, type SQL } from "drizzle-orm";

import { startBackgroundJob } from "@/lib/background-job";
import { getDb, rowsOf, targetFromEnv } from "@/lib/db";
import type { ForwardDestination } from "@/lib/db/forwarding-schema";
import { DELIVERIES_QUEUED_CHANNEL, notify } from "@/lib/db/notifications";
import { webhookEvents } from "@/lib/db/schema";
import { errorMessage } from "@/lib/error-message";
import { isStopping } from "@/lib/lifecycle";
import { logger } from "@/lib/logger";
import { processSingleton } from "@/lib/process-singleton";
import { parseEventFilters, replayCondition } from "@/lib/webhooks/webhooks";

import { wakeForwarding } from "./worker";

/*
 * A replay's queue, written in short chunks that each queue the next events in keyset order and move the cursor, so
 * on PGlite webhooks are stored between chunks. `continueReplays` (at a start, and on this process's own poll,
 * `startReplayQueuing`) picks up what a crash interrupted.
 */

type DestinationRules = Pick<
  ForwardDestination,
  "eventTypes" | "verificationMethods" | "signing" | "includeUnverified"
>;

/**
 * The destination's own filters, as storing applies them to a new event (lib/webhooks/store.ts): a
 * list that is null takes every value; an event without a verification method passes only a null list.
 * Never null itself, so `not` of it counts the events it leaves out.
 */
export function destinationFilter(d: DestinationRules): SQL {
  const parts = [
    d.eventTypes ? inArray(webhookEvents.type, d.eventTypes) : undefined,
    d.verificationMethods ? inArray(webhookEvents.verificationMethod, d.verificationMethods) : undefined,
  ].filter((part) => part !== undefined);
  return parts.length === 0 ? sql`true` : sql`coalesce(${and(...parts)}, false)`;
}

/**
 * Whether the destination takes events the console stored without verifying their signature. Signed
 * "as the service", such an event would carry a signature saying the service sent it, which nobody
 * checked: never. A Standard Webhooks destination takes them only when its admin said so.
 */
export const takesUnverified = (d: DestinationRules) => d.signing === "standard_webhooks" && d.includeUnverified;

/** The events of the selection that the destination may be sent (its filters and the verification rule). */
export function sendable(d: DestinationRules): SQL {
  return takesUnverified(d)
    ? destinationFilter(d)
    : sql`${destinationFilter(d)} and ${webhookEvents.signatureStatus} <> 'unsigned'`;
}

/**
 * How long a chunk should hold the database: short on PGlite, where a webhook that arrives during a chunk waits
 * for it; longer on PostgreSQL, which stores beside it. docs/performance.md, "Replay chunks".
 */
const chunkTargetMs = () => (targetFromEnv().kind === "pglite" ? 25 : 250);
const MIN_CHUNK = 100;
export const MAX_CHUNK = 5_000;
const FIRST_CHUNK = 500;

/** The next chunk's size: scaled towards the target time, at most doubling a step (one slow chunk is no trend). */
function nextChunkSize(size: number, elapsedMs: number): number {
  const scaled = Math.round((size * chunkTargetMs()) / Math.max(elapsedMs, 1));
  return Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, Math.min(scaled, size * 2)));
}

/** A keyset position: the last queued event's receipt time (ISO, UTC, ms) and id. */
const CURSOR = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z),(\d+)$/;

type Queuing = {
  id: string;
  destinationId: string;
  filters: string;
  queueCursor: string | null;
  createdAt: Date;
  connectionId: string;
  rules: DestinationRules;
};

type ChunkOutcome = { queued: number; done: boolean } | null;

/**
 * Queues the replay's next `size` events after its cursor and moves the cursor, in one statement that acts only while
 * the replay row is as read (else null: another instance or a cancel). Events received after the replay started are
 * not its own: storing queued them already.
 */
async function queueChunk(replay: Queuing, size: number): Promise<ChunkOutcome> {
  const parsed = parseEventFilters(new URLSearchParams(replay.filters));
  if (!parsed.ok) throw new Error(`replay ${replay.id}: its filters no longer parse`);
  const cursor = replay.queueCursor ? CURSOR.exec(replay.queueCursor) : null;
  if (replay.queueCursor && !cursor) throw new Error(`replay ${replay.id}: its queue cursor cannot be read`);
  const after = cursor
    ? sql`and (${webhookEvents.firstReceivedAt}, ${webhookEvents.id}) > (${cursor[1]}::timestamptz, ${cursor[2]}::bigint)`
    : sql``;
  const db = await getDb();
  // In (received, id) order: the events' own key, and the order of the log's indexes read backwards
  // (ASC NULLS FIRST is exactly the reverse of their DESC NULLS LAST), so each chunk is one index range.
  // Sorting is ruled out for the statement: with statistics older than the events the planner scanned the
  // connection's whole history and sorted each chunk (docs/performance.md, "Replay chunks").
  const statement = sql`
    with replay as (
      select id from forward_replays
      where id = ${replay.id} and cancelled_at is null and queued_at is null and queue_cursor is not distinct from ${replay.queueCursor}::text
      for update skip locked
    ), chunk as (
      select ${webhookEvents.connectionId} as connection_id, ${webhookEvents.eventId} as event_id, ${webhookEvents.firstReceivedAt} as received, ${webhookEvents.id} as id
      from webhook_events
      where exists (select 1 from replay) and ${replayCondition(parsed.filters, replay.connectionId)} and ${sendable(replay.rules)}
        and ${webhookEvents.firstReceivedAt} <= ${replay.createdAt.toISOString()}::timestamptz ${after}
      order by ${webhookEvents.firstReceivedAt} asc nulls first, ${webhookEvents.id} asc nulls first
      limit ${size}
    ), queued as (
      insert into forward_deliveries (destination_id, connection_id, event_id, origin, replay_id)
      select ${replay.destinationId}, connection_id, event_id, 'replay', ${replay.id} from chunk
      returning 1
    ), last as (
      select received, id from chunk order by received desc, id desc limit 1
    )
    update forward_replays r set
      queued = r.queued + (select count(*) from queued)::int,
      queue_cursor = coalesce((select to_char(received at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ',' || id from last), r.queue_cursor),
      queued_at = case when (select count(*) from chunk) < ${size} then now() end
    from replay where r.id = replay.id
    returning (select count(*) from queued)::int as queued, r.queued_at is not null as done`;
  const result = await db.transaction(async (tx) => {
    // JIT off too: on PostgreSQL the cost that rules sorting out would otherwise make it compile the statement.
    await tx.execute(sql`select set_config('enable_sort', 'off', true), set_config('jit', 'off', true)`);
    const [chunk] = rowsOf<{ queued: number; done: boolean }>(await tx.execute(statement));
    // Heard at commit by every instance's workers: this process may be a CLI, with none of its own.
    if ((chunk?.queued ?? 0) > 0) await notify(tx, DELIVERIES_QUEUED_CHANNEL);
    return chunk;
  });
  return result ?? null;
}

/** The oldest replay still queuing (not cancelled, its destination on), but those this pass leaves to others. */
async function nextQueuing(leave: ReadonlySet<string>): Promise<Queuing | null> {
  const db = await getDb();
  const skip =
    leave.size > 0
      ? sql`and r.id not in (${sql.join(
          [...leave].map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`
      : sql``;
  const [row] = rowsOf<{
    id: string;
    destination_id: string;
    filters: string;
    queue_cursor: string | null;
    created_at: Date | string;
    connection_id: string;
    event_types: string[] | null;
    verification_methods: string[] | null;
    signing: ForwardDestination["signing"];
    include_unverified: boolean;
  }>(
    await db.execute(sql`
    select r.id, r.destination_id, r.filters, r.queue_cursor, r.created_at, d.connection_id, d.event_types, d.verification_methods, d.signing, d.include_unverified
    from forward_replays r join forward_destinations d on d.id = r.destination_id
    where r.queued_at is null and r.cancelled_at is null and d.enabled ${skip}
    order by r.created_at limit 1`),
  );
  if (!row) return null;
  return {
    id: row.id,
    destinationId: row.destination_id,
    filters: row.filters,
    queueCursor: row.queue_cursor,
    createdAt: new Date(row.created_at),
    connectionId: row.connection_id,
    rules: {
      eventTypes: row.event_types,
      verificationMethods: row.verification_methods,
      signing: row.signing,
      includeUnverified: row.include_unverified,
    },
  };
}

/** Lets what waits for the database (a webhook to store) go before the next chunk. */
const giveWay = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Queues every replay still queuing, chunk after chunk, oldest replay first. A replay whose chunk did
 * nothing (another instance holds it, or it was cancelled) is left for this pass. Answers how many
 * deliveries it queued.
 */
async function queueWaitingReplays(chunkSize?: number): Promise<number> {
  const leave = new Set<string>();
  let total = 0;
  for (let replay = await nextQueuing(leave); replay; replay = await nextQueuing(leave)) {
    let size = chunkSize ?? FIRST_CHUNK;
    for (;;) {
      // A stop ends the pass between chunks: the cursor is kept, and another instance or the next start goes on.
      if (isStopping()) return total;
      const started = performance.now();
      const step = await queueChunk(replay, size);
      if (!step) {
        leave.add(replay.id);
        break;
      }
      total += step.queued;
      if (step.queued > 0) wakeForwarding();
      if (step.done) break;
      if (chunkSize === undefined) size = nextChunkSize(size, performance.now() - started);
      await giveWay();
      // The cursor moved: read it again rather than work it out here (the statement is the one source).
      const again = await nextQueuing(leave);
      if (!again || again.id !== replay.id) break;
      replay = again;
    }
  }
  return total;
}

/** This process's queuing pass: Next bundles the actions that start replays and the workers apart. */
type QueuingState = { running: Promise<number> | null; again: boolean };
const queuing = () =>
  processSingleton("destinations.replay-queuing", (): QueuingState => ({ running: null, again: false }));

/**
 * Queues what replays still have to queue, one pass at a time in a process (a call during a pass makes it look once
 * more, and answers its promise), safe on several instances; answers the deliveries queued. `chunkSize` is for tests.
 */
export function continueReplays(options: { chunkSize?: number } = {}): Promise<number> {
  const state = queuing();
  if (state.running) {
    state.again = true;
    return state.running;
  }
  const pass = (async () => {
    let total = 0;
    try {
      do {
        state.again = false;
        total += await queueWaitingReplays(options.chunkSize);
      } while (state.again && !isStopping());
      return total;
    } finally {
      state.running = null;
    }
  })();
  state.running = pass;
  return pass;
}

/** Starts a pass without waiting for it (a replay just started); a failure is logged, and the next poll tries again. */
export function continueReplaysInBackground(options: { chunkSize?: number } = {}): Promise<void> {
  return continueReplays(options).then(
    () => undefined,
    (error: unknown) => logger.error("replay queuing failed", { error: errorMessage(error) }),
  );
}

/** How often this process looks for replays with a queue still to write (one a crash or a restart interrupted). */
const QUEUING_POLL_MS = 1_000;

/**
 * Starts looking, once per process (also across dev reloads), for replays whose queue is still to be written. A stop
 * waits for the pass under way (a route's too), which ends at its next chunk.
 */
export function startReplayQueuing(): void {
  startBackgroundJob("destinations.replay-queuing", {
    everyMs: QUEUING_POLL_MS,
    firstMs: 0,
    run: () => continueReplaysInBackground(),
    underWay: () => queuing().running,
  });
}
