import "server-only";
import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { getDb, targetFromEnv, type Transaction } from "@/lib/db";
import { databaseErrorCode } from "@/lib/logger";
import { webhookEvents } from "@/lib/db/schema";
import { isTestEventId } from "./constants";
import type { AuthenticatorExpiredData, WebhookEnvelope } from "./envelope";
import { ensurePartitionsFor, isMissingPartition } from "./partitions";

export type SignatureStatus = "verified_key1" | "verified_key2" | "unsigned";

export type ReceivedEvent = {
  connectionId: string;
  envelope: WebhookEnvelope;
  data: Partial<AuthenticatorExpiredData>;
  rawBody: string;
  signatureStatus: SignatureStatus;
  receivedAt: Date;
};

/** What storing did: a new row or one more delivery of it (both "stored"), or an id already stored with another body. */
export type StoreOutcome = { kind: "stored" } | { kind: "conflicting"; storedSha256: string; receivedSha256: string };

export const sha256Hex = (text: string | Buffer) => crypto.createHash("sha256").update(text).digest("hex");

/** Rows one batch writes at most: bounds a statement's size (a body is at most 256 KiB, most about 1 KiB). */
export const MAX_BATCH_ROWS = 100;

type Waiting = { event: ReceivedEvent; resolve: (outcome: StoreOutcome) => void; reject: (error: unknown) => void };
const queue: Waiting[] = [];
let writesInFlight = 0;

/**
 * Batches written at once. PGlite runs one statement at a time, so a second batch would only wait
 * there while it could have grown; PostgreSQL writes a few side by side and leaves the rest of the
 * pool (lib/db) to the console's reads.
 */
const maxWritesInFlight = () => (targetFromEnv().kind === "pglite" ? 1 : 4);

/**
 * Stores an event, or counts a redelivery of it, and resolves once that is committed: group commit.
 * Deliveries that arrive while the database is busy with earlier batches wait in a queue and are
 * written together, one transaction per batch (at most MAX_BATCH_ROWS) with one multi-row INSERT, so
 * under load the console pays a few statements and one commit for many events instead of each; alone, an event is written
 * at once. Each caller gets its own event's outcome or error: a batch the database refuses for one
 * bad row is written again row by row, so the good rows are stored and only the bad one fails.
 */
export function storeEvent(event: ReceivedEvent): Promise<StoreOutcome> {
  return new Promise((resolve, reject) => {
    queue.push({ event, resolve, reject });
    writeQueued();
  });
}

/** An event's identity: its connection and its id (one row each). */
const rowKey = (connectionId: string, eventId: string) => `${connectionId}\u0000${eventId}`;
const eventKey = (event: ReceivedEvent) => rowKey(event.connectionId, event.envelope.id);

function writeQueued(): void {
  while (queue.length > 0 && writesInFlight < maxWritesInFlight()) {
    const batch = takeBatch();
    writesInFlight++;
    void writeBatch(batch).finally(() => {
      writesInFlight--;
      writeQueued();
    });
  }
}

/**
 * The next batch, oldest first. A batch reads the rows it already has once, before it writes, so a
 * second delivery of an event already in the batch stays queued for the next one (and counts there).
 */
function takeBatch(): Waiting[] {
  const batch: Waiting[] = [];
  const keys = new Set<string>();
  for (let i = 0; i < queue.length && batch.length < MAX_BATCH_ROWS; ) {
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
    const outcomes = await insertEvents(batch.map((w) => w.event));
    batch.forEach((w, i) => w.resolve(outcomes[i]!));
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

/**
 * A refusal caused by a row's values rather than by the database: class 22 (data exception: a value
 * out of range, a character it cannot hold) or 23 (integrity: the connection was deleted meanwhile).
 */
function isRowError(error: unknown): boolean {
  const code = databaseErrorCode(error);
  return code !== undefined && (code.startsWith("22") || code.startsWith("23"));
}

/** The advisory lock space of events' (connection, event id) pairs: any fixed number (a two-key lock never meets a one-key one). */
const EVENT_LOCK_SPACE = 724_117_019;

/** The lock key of a pair: 32 bits of its hash. Two pairs that share one only take turns. */
const lockKey = (key: string) => crypto.createHash("sha256").update(key).digest().readInt32BE(0);

/**
 * One transaction for the batch. The table is partitioned by receipt month, so no unique index can
 * hold (connection, event id) alone (its key would have to include the first delivery's time):
 * instead the batch first locks its pairs (transaction-scoped advisory locks, in key order so two
 * batches never wait on each other in a circle), so that two deliveries of one event (two batches, two
 * instances) take turns and the second finds the first's row. Then it reads the rows already stored,
 * counts the redeliveries whose body is the stored one, and inserts the rest in one multi-row INSERT.
 * The same id with another body leaves the row as it was and says so (the caller records it). Throws
 * what the database throws, and then nothing of the batch is written. The outcomes are in the order of
 * `events`.
 */
async function insertEvents(events: ReceivedEvent[]): Promise<StoreOutcome[]> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const keys = [...new Set(events.map((event) => lockKey(eventKey(event))))].sort((a, b) => a - b);
    await tx.execute(sql`select pg_advisory_xact_lock(${EVENT_LOCK_SPACE}, key) from unnest(${`{${keys.join(",")}}`}::int4[]) as key`);
    const pairs = JSON.stringify(events.map((event) => ({ connection_id: event.connectionId, event_id: event.envelope.id })));
    const existing = await tx
      .select({ id: webhookEvents.id, firstReceivedAt: webhookEvents.firstReceivedAt, connectionId: webhookEvents.connectionId, eventId: webhookEvents.eventId, rawBody: webhookEvents.rawBody })
      .from(webhookEvents)
      .where(
        sql`(${webhookEvents.connectionId}, ${webhookEvents.eventId}) in (select connection_id, event_id from json_to_recordset(${pairs}::json) as pair(connection_id uuid, event_id text))`,
      );
    const stored = new Map(existing.map((row) => [rowKey(row.connectionId, row.eventId), row]));
    const redeliveries = events.filter((event) => stored.get(eventKey(event))?.rawBody === event.rawBody);
    const counted = new Set(redeliveries.length > 0 ? await countRedeliveries(tx, redeliveries.map((event) => ({ row: stored.get(eventKey(event))!, event }))) : []);
    // New events, and redeliveries whose row went meanwhile (the retention purge): stored as new.
    const inserts = events.filter((event) => {
      const row = stored.get(eventKey(event));
      return row === undefined || (row.rawBody === event.rawBody && !counted.has(row.id));
    });
    if (inserts.length > 0) await tx.insert(webhookEvents).values(inserts.map(eventRow));
    return events.map((event): StoreOutcome => {
      const row = stored.get(eventKey(event));
      if (row === undefined || row.rawBody === event.rawBody) return { kind: "stored" };
      return { kind: "conflicting", storedSha256: sha256Hex(row.rawBody), receivedSha256: sha256Hex(event.rawBody) };
    });
  });
}

/** One more delivery of each stored row, at its receipt time; returns the ids of the rows counted. */
async function countRedeliveries(tx: Transaction, deliveries: Array<{ row: { id: number; firstReceivedAt: Date }; event: ReceivedEvent }>): Promise<number[]> {
  const values = JSON.stringify(deliveries.map(({ row, event }) => ({ id: row.id, first_received_at: row.firstReceivedAt, received_at: event.receivedAt })));
  const result = (await tx.execute(sql`
    update webhook_events w set delivery_count = w.delivery_count + 1, last_received_at = greatest(w.last_received_at, d.received_at)
    from json_to_recordset(${values}::json) as d(id bigint, first_received_at timestamptz, received_at timestamptz)
    where w.id = d.id and w.first_received_at = d.first_received_at
    returning w.id`)) as unknown as { rows: Array<{ id: number | string }> };
  return result.rows.map((r) => Number(r.id));
}

function eventRow(event: ReceivedEvent): typeof webhookEvents.$inferInsert {
  const { envelope, data, receivedAt } = event;
  return {
    connectionId: event.connectionId,
    eventId: envelope.id,
    type: envelope.type,
    tenantId: envelope.tenantId,
    envelopeTime: new Date(envelope.time),
    firstReceivedAt: receivedAt,
    lastReceivedAt: receivedAt,
    deliveryCount: 1,
    signatureStatus: event.signatureStatus,
    rawBody: event.rawBody,
    isTest: isTestEventId(envelope.id),
    userId: data.userId,
    verificationMethod: data.verificationMethod,
    authenticatorCreatedAt: data.createdAt ? new Date(data.createdAt) : undefined,
    expiresAt: data.expiresAt ? new Date(data.expiresAt) : undefined,
    userAuthenticatorId: data.userAuthenticatorId,
    deviceName: data.deviceName,
    devicePlatform: data.devicePlatform,
    email: data.email,
    phoneNumber: data.phoneNumber,
    credentialId: data.credentialId,
    aaguid: data.aaguid,
    credentialName: data.credentialName,
  };
}
