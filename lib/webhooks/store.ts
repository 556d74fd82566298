import "server-only";
import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db";
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

/**
 * Stores an event, or counts a redelivery of it: one statement, so two instances receiving the same
 * event at once still make one row with the exact count. A redelivery counts only when its body is the
 * stored one; the same id with another body leaves the row as it was and says so (the caller records it).
 * Throws what the database throws.
 */
export async function storeEvent(event: ReceivedEvent): Promise<StoreOutcome> {
  const { envelope, data, receivedAt } = event;
  const db = await getDb();
  const written = await db
    .insert(webhookEvents)
    .values({
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
    })
    .onConflictDoUpdate({
      target: [webhookEvents.connectionId, webhookEvents.eventId],
      set: {
        deliveryCount: sql`${webhookEvents.deliveryCount} + 1`,
        lastReceivedAt: sql`greatest(${webhookEvents.lastReceivedAt}, excluded.last_received_at)`,
      },
      setWhere: sql`${webhookEvents.rawBody} = excluded.raw_body`,
    })
    .returning({ id: webhookEvents.id });
  if (written.length > 0) return { kind: "stored" };

  const [stored] = await db
    .select({ rawBody: webhookEvents.rawBody })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.connectionId, event.connectionId), eq(webhookEvents.eventId, envelope.id)));
  // Gone between the two statements (the retention purge): nothing stored to conflict with, so store it.
  if (!stored) return storeEvent(event);
  return { kind: "conflicting", storedSha256: sha256Hex(stored.rawBody), receivedSha256: sha256Hex(event.rawBody) };
}
