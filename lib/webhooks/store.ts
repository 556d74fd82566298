import "server-only";
import crypto from "node:crypto";
import { and, eq, or, sql } from "drizzle-orm";
import { getDb, targetFromEnv } from "@/lib/db";
import { databaseErrorCode } from "@/lib/logger";
import { webhookEvents } from "@/lib/db/schema";
import { isTestEventId } from "./constants";
import type { AuthenticatorExpiredData, WebhookEnvelope } from "./envelope";

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

/** Rows one INSERT writes at most: bounds a statement's size (a body is at most 256 KiB, most about 1 KiB). */
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
 * written together, one multi-row INSERT per batch (at most MAX_BATCH_ROWS), so under load the console
 * pays one statement and one commit for many events instead of one each; alone, an event is written
 * at once. Each caller gets its own event's outcome or error: a batch the database refuses for one
 * bad row is written again row by row, so the good rows are stored and only the bad one fails.
 */
export function storeEvent(event: ReceivedEvent): Promise<StoreOutcome> {
  return new Promise((resolve, reject) => {
    queue.push({ event, resolve, reject });
    writeQueued();
  });
}

/** An event's identity: its connection and its id (the unique index). */
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
 * The next batch, oldest first. One INSERT … ON CONFLICT cannot touch a row twice, so a second
 * delivery of an event already in the batch stays queued for the next one (and counts there).
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

async function writeBatch(batch: Waiting[]): Promise<void> {
  try {
    const outcomes = await insertEvents(batch.map((w) => w.event));
    batch.forEach((w, i) => w.resolve(outcomes[i]!));
  } catch (error) {
    if (batch.length > 1 && isRowError(error)) {
      for (const waiting of batch) await writeBatch([waiting]);
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

/**
 * One statement for the batch, so two instances receiving the same event at once still make one row
 * with the exact count. A redelivery counts only when its body is the stored one; the same id with
 * another body leaves the row as it was and says so (the caller records it). Throws what the database
 * throws. The outcomes are in the order of `events`.
 */
async function insertEvents(events: ReceivedEvent[]): Promise<StoreOutcome[]> {
  const db = await getDb();
  const written = await db
    .insert(webhookEvents)
    .values(events.map(eventRow))
    .onConflictDoUpdate({
      target: [webhookEvents.connectionId, webhookEvents.eventId],
      set: {
        deliveryCount: sql`${webhookEvents.deliveryCount} + 1`,
        lastReceivedAt: sql`greatest(${webhookEvents.lastReceivedAt}, excluded.last_received_at)`,
      },
      setWhere: sql`${webhookEvents.rawBody} = excluded.raw_body`,
    })
    .returning({ connectionId: webhookEvents.connectionId, eventId: webhookEvents.eventId });
  const stored = new Set(written.map((row) => rowKey(row.connectionId, row.eventId)));
  const notWritten = events.filter((event) => !stored.has(eventKey(event)));
  if (notWritten.length === 0) return events.map(() => ({ kind: "stored" }));

  // Not written: an id already stored with another body, or (rarely) gone between the two statements
  // (the retention purge), and so nothing to conflict with: stored again.
  const rows = await db
    .select({ connectionId: webhookEvents.connectionId, eventId: webhookEvents.eventId, rawBody: webhookEvents.rawBody })
    .from(webhookEvents)
    .where(or(...notWritten.map((event) => and(eq(webhookEvents.connectionId, event.connectionId), eq(webhookEvents.eventId, event.envelope.id)))));
  const storedBodies = new Map(rows.map((row) => [rowKey(row.connectionId, row.eventId), row.rawBody]));
  const gone = notWritten.filter((event) => !storedBodies.has(eventKey(event)));
  const again = gone.length > 0 ? await insertEvents(gone) : [];
  return events.map((event): StoreOutcome => {
    const key = eventKey(event);
    if (stored.has(key)) return { kind: "stored" };
    const storedBody = storedBodies.get(key);
    if (storedBody === undefined) return again[gone.indexOf(event)]!;
    return { kind: "conflicting", storedSha256: sha256Hex(storedBody), receivedSha256: sha256Hex(event.rawBody) };
  });
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
