import "server-only";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db";
import { readServerKeys } from "@/lib/connections/keys";
import { connections, webhookEvents } from "@/lib/db/schema";
import { errorMessage, logger } from "@/lib/logger";
import { checkEnvelope } from "./envelope";
import { recordRejection, type RejectionReason } from "./rejections";
import { verifyWebhookSignature } from "./signature";
import { hashWebhookToken } from "./token";

export const MAX_WEBHOOK_BODY_BYTES = 256 * 1024;

export type SignatureStatus = "verified_key1" | "verified_key2" | "unsigned";

const UNKNOWN_TOKEN_KEY = "unknown_token";
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;

type Receiver = { id: string; keys: string[] };

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
}

const errorCodes: Record<number, string> = {
  400: "invalid_request",
  401: "unauthorized",
  404: "not_found",
  413: "payload_too_large",
  415: "unsupported_media_type",
};

/** Reads at most `limit` bytes; stops reading (and cancels the stream) as soon as the limit is passed. */
async function readBounded(request: Request, limit: number): Promise<{ body: Buffer; tooLarge: boolean }> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await request.body?.cancel().catch(() => {});
    return { body: Buffer.alloc(0), tooLarge: true };
  }
  if (!request.body) return { body: Buffer.alloc(0), tooLarge: false };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return { body: Buffer.concat(chunks), tooLarge: true };
    }
    chunks.push(value);
  }
  return { body: Buffer.concat(chunks), tooLarge: false };
}

function isJsonMediaType(contentType: string | null): boolean {
  const mediaType = contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
  return mediaType === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

/** The event id, when the body is JSON with a string `id`: recorded with a rejection to help find it. */
function readableEventId(body: Buffer): string | null {
  try {
    const parsed: unknown = JSON.parse(body.toString("utf8"));
    const id = parsed && typeof parsed === "object" ? (parsed as { id?: unknown }).id : undefined;
    return typeof id === "string" ? id.slice(0, 200) : null;
  } catch {
    return null;
  }
}

async function findReceiver(token: string): Promise<Receiver | null> {
  const db = await getDb();
  const [connection] = await db
    .select({ id: connections.id })
    .from(connections)
    .where(eq(connections.webhookTokenHash, hashWebhookToken(token)))
    .limit(1);
  return connection ? { id: connection.id, keys: await readServerKeys(connection.id) } : null;
}

export type ReceiveOptions = { token?: string; now?: Date };

/**
 * The webhook receiver: POST /api/webhooks/{token}. Answers 200 only once the event row is committed,
 * so the service retries whenever we could not store it. Steps run in the order the issue fixes.
 */
export async function receiveWebhook(request: Request, options: ReceiveOptions = {}): Promise<Response> {
  const receivedAt = options.now ?? new Date();
  const token = options.token ?? decodeURIComponent(new URL(request.url).pathname.split("/").filter(Boolean).pop() ?? "");
  let receiver: Receiver | null = null;
  try {
    if (TOKEN_SHAPE.test(token)) receiver = await findReceiver(token);
  } catch (error) {
    logger.error("webhook receiver cannot read the database", { error: errorMessage(error) });
    return json(503, { error: "unavailable", errorDescription: "The console cannot store events right now; retry later." });
  }

  const { body, tooLarge } = await readBounded(request, MAX_WEBHOOK_BODY_BYTES);
  // Rejections are rate-limited per URL. Unknown URLs share one allowance: otherwise a flood with a
  // fresh random token per request would get a full allowance each and fill the disk.
  const tokenKey = receiver ? hashWebhookToken(token) : UNKNOWN_TOKEN_KEY;
  const reject = async (status: number, reason: RejectionReason, detail: string) => {
    await recordRejection({
      tokenKey,
      connectionId: receiver?.id ?? null,
      status,
      reason,
      detail,
      eventId: tooLarge ? null : readableEventId(body),
      body,
      headers: request.headers,
      receivedAt,
    });
    return json(status, { error: errorCodes[status] ?? "invalid_request", errorDescription: detail });
  };

  if (!receiver) return reject(404, "unknown_token", "No connection has this webhook URL.");
  if (tooLarge) return reject(413, "too_large", `The body is larger than ${MAX_WEBHOOK_BODY_BYTES} bytes.`);
  if (!isJsonMediaType(request.headers.get("content-type"))) {
    return reject(415, "unsupported_media_type", "Content-Type must be application/json.");
  }

  let signatureStatus: SignatureStatus = "unsigned";
  if (receiver.keys.length > 0) {
    const check = verifyWebhookSignature(body, request.headers.get("x-signature-v2"), receiver.keys, Math.floor(receivedAt.getTime() / 1000));
    if (!check.ok) return reject(401, check.reason, check.detail);
    signatureStatus = check.keyIndex === 0 ? "verified_key1" : "verified_key2";
  }

  let parsed: unknown;
  const rawBody = body.toString("utf8");
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    return reject(400, "malformed_json", "The body is not valid JSON.");
  }
  const checked = checkEnvelope(parsed);
  if (!checked.ok) return reject(400, "invalid_envelope", checked.description);

  const { envelope, data } = checked;
  try {
    const db = await getDb();
    await db
      .insert(webhookEvents)
      .values({
        connectionId: receiver.id,
        eventId: envelope.id,
        type: envelope.type,
        tenantId: envelope.tenantId,
        envelopeTime: new Date(envelope.time),
        firstReceivedAt: receivedAt,
        lastReceivedAt: receivedAt,
        deliveryCount: 1,
        signatureStatus,
        rawBody,
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
      // A redelivery (the service retries up to 3 times) counts, and never adds a row.
      .onConflictDoUpdate({
        target: [webhookEvents.connectionId, webhookEvents.eventId],
        set: {
          deliveryCount: sql`${webhookEvents.deliveryCount} + 1`,
          lastReceivedAt: sql`greatest(${webhookEvents.lastReceivedAt}, excluded.last_received_at)`,
        },
      });
  } catch (error) {
    logger.error("webhook event not stored", { connectionId: receiver.id, eventId: envelope.id, error: errorMessage(error) });
    return json(503, { error: "unavailable", errorDescription: "The event could not be stored; retry later." });
  }
  return json(200, { success: true });
}
