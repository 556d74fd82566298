import "server-only";

import crypto from "node:crypto";
import { setTimeout } from "node:timers/promises";

import { sql } from "drizzle-orm";

import { getDb, rowsOf, targetFromEnv, type Executor } from "@/lib/db";
import { DELIVERIES_QUEUED_CHANNEL, notify } from "@/lib/db/notifications";
import { databaseErrorCode } from "@/lib/error-message";
import { countReceipt, observeBatch } from "@/lib/metrics/metrics";
import { processSingleton } from "@/lib/process-singleton";
import { currentTraceParent, withSpan } from "@/lib/telemetry/tracing";

import { ensurePartitionsFor, isMissingPartition } from "./partitions";
import type { AuthenticatorExpiredData, WebhookEnvelope } from "./schemas";
import { batchRows, COLUMN_NAMES, RECORD_TYPE } from "./store-rows";

export type SignatureStatus = "verified_key1" | "verified_key2" | "unsigned";

export type ReceivedEvent = {
  connectionId: string;
  envelope: WebhookEnvelope;
  data: Partial<AuthenticatorExpiredData>;
  rawBody: string;
  signatureStatus: SignatureStatus;
  receivedAt: Date;
  /** The W3C traceparent of its `webhook.store` span, set by storeEvent while tracing is on: its deliveries keep it. */
  traceParent?: string | null;
};

/** What storing did: a new row or one more delivery of it ("stored"), or of an id stored with another body. */
export type StoreOutcome = { kind: "stored" } | { kind: "conflicting"; storedSha256: string; receivedSha256: string };

/**
 * Who hears that storing queued deliveries, the process's: Next bundles the routes that store and the startup
 * code that listens (lib/startup.ts) apart, and a module-level set would not reach from one to the other.
 */
const queuedListeners = processSingleton("webhooks.deliveries-queued-listeners", () => new Set<() => void>());
/** Events handed to storeEvent by this process so far, the process's for the same reason. */
const received = processSingleton("webhooks.events-received", () => ({ count: 0 }));

/** How many events this process has been given to store: lib/destinations tells a flood of webhooks by it. */
export function eventsReceived(): number {
  return received.count;
}

/** Calls `listener` whenever storing queued deliveries to destinations (lib/destinations wakes its workers). */
export function onDeliveriesQueued(listener: () => void): void {
  queuedListeners.add(listener);
}

function announceQueued(): void {
  for (const listener of queuedListeners) listener();
}

export const sha256Hex = (text: string | Buffer) => crypto.createHash("sha256").update(text).digest("hex");

/** Rows one batch writes at most: bounds a statement's size (docs/performance.md, "Replay chunks"). */
export const MAX_BATCH_ROWS = 100;

type Waiting = { event: ReceivedEvent; resolve: (outcome: StoreOutcome) => void; reject: (error: unknown) => void };
/** The events waiting and the batches being written, the process's: the stop's flush (startup) must see the routes'. */
const batching = processSingleton("webhooks.group-commit", () => ({ queue: [] as Waiting[], writesInFlight: 0 }));
const { queue } = batching;

/**
 * Batches written at once. PGlite runs one statement at a time, so a second batch would only wait there while it
 * could have grown; PostgreSQL writes a few side by side and leaves the rest of the pool (lib/db) to the reads.
 */
const maxWritesInFlight = () => (targetFromEnv().kind === "pglite" ? 1 : 4);

/**
 * Stores an event, or counts a redelivery of it, and resolves once committed: group commit, the deliveries that
 * waited written together, one multi-row INSERT per batch (at most MAX_BATCH_ROWS); alone, an event is written at
 * once. A batch refused for one bad row is written again row by row. docs/webhooks.md, "Group commit".
 */
export function storeEvent(event: ReceivedEvent): Promise<StoreOutcome> {
  received.count++;
  // The span covers the wait for its batch's commit; never the body or the user, only the connection.
  return withSpan("webhook.store", { "console.connection_id": event.connectionId }, async (span) => {
    const traceParent = currentTraceParent();
    const outcome = await new Promise<StoreOutcome>((resolve, reject) => {
      queue.push({ event: traceParent ? { ...event, traceParent } : event, resolve, reject });
      writeQueued();
    });
    span.setAttributes({ "console.outcome": outcome.kind });
    return outcome;
  });
}

/** An event's identity: its connection and its id (one row each). */
const rowKey = (connectionId: string, eventId: string) => `${connectionId}\u0000${eventId}`;
const eventKey = (event: ReceivedEvent) => rowKey(event.connectionId, event.envelope.id);

function writeQueued(): void {
  while (queue.length > 0 && batching.writesInFlight < maxWritesInFlight()) {
    const batch = takeBatch();
    observeBatch(batch.length);
    batching.writesInFlight++;
    void writeBatch(batch).finally(() => {
      batching.writesInFlight--;
      writeQueued();
    });
  }
}

/** The stop's "flush" (lib/startup.ts): until every queued event is written, or the deadline (Date.now()). */
export async function flushStoredEvents(deadline: number): Promise<void> {
  while (queue.length + batching.writesInFlight > 0 && Date.now() < deadline) await setTimeout(10);
}

/**
 * The next batch, oldest first. A batch reads the rows it already has once, before it writes, so a
 * second delivery of an event already in the batch stays queued for the next one (and counts there).
 */
function takeBatch(): Waiting[] {
  const batch: Waiting[] = [];
  const keys = new Set<string>();
  for (let i = 0; i < queue.length && batch.length < MAX_BATCH_ROWS;) {
    const key = eventKey(queue[i]!.event);
    if (keys.has(key)) {
      i++;
      continue;
    }
    keys.add(key);
    batch.push(queue.splice(i, 1)[0]!);
  }
  return batch;
}

async function writeBatch(batch: Waiting[], partitionsMade = false): Promise<void> {
  try {
    const written = await insertEvents(batch.map((w) => w.event));
    batch.forEach((w, i) => {
      const { outcome, redelivery } = written[i]!;
      // Counted once committed: a batch that fails and is written again row by row counts each row once.
      countReceipt(
        w.event.connectionId,
        outcome.kind === "conflicting" ? "conflicting" : redelivery ? "duplicate" : "stored",
      );
      w.resolve(outcome);
    });
  } catch (error) {
    // The month's partition is missing (the upkeep that makes it ahead has not run): made, then again.
    if (isMissingPartition(error) && !partitionsMade) {
      await ensurePartitionsFor(batch.map((w) => w.event.receivedAt)).then(
        () => writeBatch(batch, true),
        (cause) => batch.forEach((w) => w.reject(cause)),
      );
      return;
    }
    if (batch.length > 1 && isRowError(error)) {
      for (const waiting of batch) await writeBatch([waiting], partitionsMade);
      return;
    }
    for (const waiting of batch) waiting.reject(error);
  }
}

/** A refusal for a row's values: class 22 (a value it cannot hold) or 23 (integrity: its connection deleted). */
function isRowError(error: unknown): boolean {
  const code = databaseErrorCode(error);
  return code !== undefined && (code.startsWith("22") || code.startsWith("23"));
}

/** The advisory lock space of events' (connection, event id) pairs: any fixed number (two keys never meet one). */
const EVENT_LOCK_SPACE = 724_117_019;

/** The lock key of a pair: 32 bits of its hash. Two pairs that share one only take turns. */
const lockKey = (key: string) => crypto.createHash("sha256").update(key).digest().readInt32BE(0);

/**
 * Writes the batch; no unique index can hold (connection, event id) on the partitioned table, so on PostgreSQL a
 * transaction first locks the batch's pairs in key order. PGlite writes one batch at a time, without a transaction
 * (docs/performance.md, "Storing events"). Throws what the database throws; outcomes in the order of `events`.
 */
async function insertEvents(events: ReceivedEvent[]): Promise<Written[]> {
  const db = await getDb();
  if (targetFromEnv().kind === "pglite") return writeEvents(db, events);
  return db.transaction(async (tx) => {
    const keys = [...new Set(events.map((event) => lockKey(eventKey(event))))].sort((a, b) => a - b);
    await tx.execute(
      sql`select pg_advisory_xact_lock(${EVENT_LOCK_SPACE}, key) from unnest(${`{${keys.join(",")}}`}::int4[]) as key`,
    );
    return writeEvents(tx, events);
  });
}

type Pair = { connection_id: string; event_id: string };
const pairKey = (row: Pair) => rowKey(row.connection_id, row.event_id);

/** What writing did to an event: its outcome, and whether it was stored before (a redelivery, for the metrics). */
type Written = { outcome: StoreOutcome; redelivery: boolean };

/**
 * The new events are inserted in one statement that skips those already stored; each skipped one is a redelivery
 * that adds one to its row's delivery count (the same id with another body too, its body kept as it was). A
 * redelivery whose row went meanwhile (the retention purge) is stored again.
 */
async function writeEvents(db: Executor, events: ReceivedEvent[]): Promise<Written[]> {
  // A new event is queued for each of its connection's destinations that takes it in the same
  // statement that stores it: no event answered 200 can miss its forward, a crash included.
  const inserted = rowsOf<Pair & { queued: number }>(
    await db.execute(sql`
    with batch as (
      select * from json_to_recordset(${batchRows(events)}::json) as event(${RECORD_TYPE}, trace_parent text)
    ), inserted as (
      insert into webhook_events (${COLUMN_NAMES})
      select ${COLUMN_NAMES} from batch event
      -- A subquery per row (its LIMIT keeps the planner from making it a join): one index probe per
      -- partition for each event, never a scan of the table, however few rows the planner expects.
      where (select true from webhook_events w where w.connection_id = event.connection_id and w.event_id = event.event_id limit 1) is null
      returning connection_id, event_id, type, verification_method, is_test, signature_status
    ), queued as (
      insert into forward_deliveries (destination_id, connection_id, event_id, trace_parent)
      select d.id, i.connection_id, i.event_id, b.trace_parent from inserted i
      join batch b on b.connection_id = i.connection_id and b.event_id = i.event_id
      join forward_destinations d on d.connection_id = i.connection_id and d.enabled
        and (d.event_types is null or i.type = any(d.event_types))
        and (d.verification_methods is null or i.verification_method = any(d.verification_methods))
        -- mayForward (lib/destinations/verdict.ts) in SQL: an event the console could not verify is
        -- never signed as the service, and goes only where an admin asked for unverified events.
        and (i.signature_status <> 'unsigned' or (d.signing = 'standard_webhooks' and d.include_unverified))
      where not i.is_test
      returning 1
    )
    select connection_id, event_id, (select count(*) from queued)::int as queued from inserted`),
  );
  if ((inserted[0]?.queued ?? 0) > 0) {
    // On PostgreSQL, in the batch's transaction: every instance's workers hear of them once committed.
    await notify(db, DELIVERIES_QUEUED_CHANNEL);
    announceQueued();
  }
  const written = new Set(inserted.map(pairKey));
  const redeliveries = events.filter((event) => !written.has(eventKey(event)));
  if (redeliveries.length === 0) return events.map(() => ({ outcome: { kind: "stored" }, redelivery: false }));

  // The stored body comes back only when it is not this delivery's (a conflict, rare), for its hash.
  const counted = rowsOf<Pair & { other_body: string | null }>(
    await db.execute(sql`
    update webhook_events w set delivery_count = w.delivery_count + 1, last_received_at = greatest(w.last_received_at, event.last_received_at)
    from json_to_recordset(${batchRows(redeliveries)}::json) as event(${RECORD_TYPE})
    where w.connection_id = event.connection_id and w.event_id = event.event_id
    returning w.connection_id, w.event_id, case when w.raw_body <> event.raw_body then w.raw_body end as other_body`),
  );
  const countedBodies = new Map(counted.map((row) => [pairKey(row), row.other_body]));
  const gone = redeliveries.filter((event) => !countedBodies.has(eventKey(event)));
  const again = gone.length > 0 ? await writeEvents(db, gone) : [];
  return events.map((event): Written => {
    const key = eventKey(event);
    if (written.has(key)) return { outcome: { kind: "stored" }, redelivery: false };
    if (!countedBodies.has(key)) return again[gone.indexOf(event)]!;
    const storedBody = countedBodies.get(key);
    if (storedBody == null) return { outcome: { kind: "stored" }, redelivery: true };
    return {
      outcome: { kind: "conflicting", storedSha256: sha256Hex(storedBody), receivedSha256: sha256Hex(event.rawBody) },
      redelivery: true,
    };
  });
}
