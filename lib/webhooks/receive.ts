import "server-only";

import { hashWebhookToken } from "@/lib/connections/connections";
import { databaseErrorCode, errorMessage } from "@/lib/error-message";
import { logger } from "@/lib/logger";
import { countReceipt, observeReceipt } from "@/lib/metrics/metrics";

import { checkEnvelope } from "./envelope";
import { webhookError, webhookJson } from "./errors";
import { findReceiver, type Receiver } from "./receivers";
import { recordRejection, type RejectionReason } from "./rejections";
import { verifyWebhookSignature } from "./signature";
import { storeEvent, type SignatureStatus } from "./store";

export const MAX_WEBHOOK_BODY_BYTES = 256 * 1024;

const UNKNOWN_TOKEN_KEY = "unknown_token";
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;

// JSON is UTF-8 between systems (RFC 8259 section 8.1): a body that is not is refused, not stored repaired and unlike
// the signed bytes. A byte-order mark is kept, so such a body is refused as not JSON (the RFC forbids one too).
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

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
    const parsed: unknown = JSON.parse(utf8.decode(body));
    const id = parsed && typeof parsed === "object" ? (parsed as { id?: unknown }).id : undefined;
    return typeof id === "string" ? id.slice(0, 200) : null;
  } catch {
    return null;
  }
}

export type ReceiveOptions = { token?: string; now?: Date };

const isSecretDecryptionError = (error: unknown) => error instanceof Error && error.name === "SecretDecryptionError";

/**
 * The webhook receiver: POST /api/webhooks/{token}. Answers 200 only once the event row is committed,
 * so the service retries whenever we could not store it; 503 only when the database fails, never for
 * anything in the request. Steps run in the order the README gives.
 */
export async function receiveWebhook(request: Request, options: ReceiveOptions = {}): Promise<Response> {
  const started = performance.now();
  const seen: Seen = { connectionId: null };
  let status = 500;
  try {
    const response = await answerWebhook(request, options, seen);
    status = response.status;
    return response;
  } finally {
    // Stored, duplicate and conflicting answers (200) are counted by storing, which tells them apart.
    if (status >= 300) countReceipt(seen.connectionId, status >= 500 ? "failed" : "refused");
    observeReceipt(status, (performance.now() - started) / 1000);
  }
}

/** What the metrics learn of a request while it is answered: its connection, once its URL names one. */
type Seen = { connectionId: string | null };

async function answerWebhook(request: Request, options: ReceiveOptions, seen: Seen): Promise<Response> {
  const receivedAt = options.now ?? new Date();
  const token =
    options.token ?? decodeURIComponent(new URL(request.url).pathname.split("/").filter(Boolean).pop() ?? "");
  let receiver: Receiver | null = null;
  try {
    if (TOKEN_SHAPE.test(token)) receiver = await findReceiver(token);
  } catch (error) {
    await request.body?.cancel().catch(() => {});
    if (isSecretDecryptionError(error)) {
      logger.error("webhook receiver cannot decrypt a connection's server keys", { error: errorMessage(error) });
      return webhookError(
        503,
        "The console cannot read this connection's server keys; an administrator must enter them again.",
      );
    }
    logger.error("webhook receiver cannot read the database", { error: errorMessage(error) });
    return webhookError(503, "The console cannot store events right now; retry later.");
  }

  // An unknown URL is answered without reading its body: nobody's data, and no work for a flood.
  if (!receiver) await request.body?.cancel().catch(() => {});
  seen.connectionId = receiver?.id ?? null;
  const { body, tooLarge } = receiver
    ? await readBounded(request, MAX_WEBHOOK_BODY_BYTES)
    : { body: Buffer.alloc(0), tooLarge: false };
  // Rejections are rate-limited per URL. Unknown URLs share one allowance: otherwise a flood with a
  // fresh random token per request would get a full allowance each and fill the disk.
  const tokenKey = receiver ? hashWebhookToken(token) : UNKNOWN_TOKEN_KEY;
  const record = (status: number, reason: RejectionReason, detail: string) =>
    recordRejection({
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
  const reject = async (status: number, reason: RejectionReason, detail: string) => {
    await record(status, reason, detail);
    return webhookError(status, detail);
  };

  if (!receiver) return reject(404, "unknown_token", "No connection has this webhook URL.");
  if (tooLarge) return reject(413, "too_large", `The body is larger than ${MAX_WEBHOOK_BODY_BYTES} bytes.`);
  if (!isJsonMediaType(request.headers.get("content-type"))) {
    return reject(415, "unsupported_media_type", "Content-Type must be application/json.");
  }

  let signatureStatus: SignatureStatus = "unsigned";
  if (receiver.keys.length > 0) {
    const check = verifyWebhookSignature(
      body,
      request.headers.get("x-signature-v2"),
      receiver.keys,
      Math.floor(receivedAt.getTime() / 1000),
    );
    if (!check.ok) return reject(401, check.reason, check.detail);
    signatureStatus = check.keyIndex === 0 ? "verified_key1" : "verified_key2";
  }

  let rawBody: string;
  let parsed: unknown;
  try {
    rawBody = utf8.decode(body);
  } catch {
    return reject(400, "malformed_json", "The body is not valid UTF-8, which JSON requires.");
  }
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    return reject(400, "malformed_json", "The body is not valid JSON.");
  }
  const checked = checkEnvelope(parsed);
  if (!checked.ok) return reject(400, "invalid_envelope", checked.description);

  const { envelope, data } = checked;
  try {
    const outcome = await storeEvent({
      connectionId: receiver.id,
      envelope,
      data,
      rawBody,
      signatureStatus,
      receivedAt,
    });
    if (outcome.kind === "conflicting") {
      // Answered 200 all the same: retrying cannot make the service's two bodies one, so it must not retry.
      await record(
        200,
        "conflicting_redelivery",
        `Event ${envelope.id} was stored earlier with another body (sha256 ${outcome.storedSha256}); this delivery's body (sha256 ${outcome.receivedSha256}) was not stored.`,
      );
    }
  } catch (error) {
    const code = databaseErrorCode(error);
    // Class 22 (data exception: a value out of range, a character the database cannot hold) is the
    // request's fault, and a retry would fail the same way: refused, and recorded, never a 503.
    if (code?.startsWith("22"))
      return reject(400, "invalid_envelope", `A value in the event cannot be stored (database error ${code}).`);
    // Deleted while this request was under way (another instance may still have had its URL cached).
    if (code === "23503") return webhookError(404, "No connection has this webhook URL.");
    logger.error("webhook event not stored", { connectionId: receiver.id, error: errorMessage(error) });
    // Recorded where it can be (a statement that failed or timed out, with the database still up), so
    // the receiver-error alert counts it; the code only, as the error's message may quote the body's values.
    return reject(
      503,
      "receiver_error",
      `The event could not be stored${code ? ` (database error ${code})` : ""}; retry later.`,
    );
  }
  return webhookJson(200, { success: true });
}
