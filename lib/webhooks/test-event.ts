import "server-only";
import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { recordAudit, type AuditActor } from "@/lib/audit/audit";
import type { ActionResult } from "@/lib/call-action";
import { readConnectionSecret } from "@/lib/connections/keys";
import { connectionIdSchema } from "@/lib/connections/schemas";
import { getDb } from "@/lib/db";
import { connections, webhookEvents } from "@/lib/db/schema";
import { logger } from "@/lib/logger";
import { SecretDecryptionError } from "@/lib/secrets";
import { TEST_EVENT_ID_PREFIX, TEST_EVENT_NEEDS_SERVER_KEY } from "./constants";
import { AUTHENTICATOR_EXPIRED } from "./envelope";
import { signatureHeader } from "./signature";
import type { TestEventReport } from "./types";
import { webhookUrlFor } from "./url";

/**
 * "Send a test event": the console signs a sample authenticator.expired with the connection's server
 * key and POSTs it to the connection's public receiver URL, the one pasted into the tenant's settings,
 * so it takes the path a real delivery takes (DNS, proxies, TLS, the receiver). What came back is
 * reported in words: a wrong CONSOLE_PUBLIC_URL, a proxy in the way or a key mismatch shows here first.
 */

const TEST_EVENT_TIMEOUT_MS = 5_000;
/** Obviously not a person: the sample names no real user, email or phone. */
export const TEST_EVENT_USER_ID = "usr_console_test";
/** The nil UUID: the tenant's id is learned from its events, and none has arrived yet. */
export const PLACEHOLDER_TENANT_ID = "00000000-0000-0000-0000-000000000000";
/** The most of an answer's body read: the receiver's error is a line of JSON; anything else is not read whole. */
const MAX_ANSWER_BYTES = 16 * 1024;

const sendTestEventSchema = z.object({ connectionId: connectionIdSchema });
export type SendTestEventInput = z.infer<typeof sendTestEventSchema>;

/** The signed sample: a test id (so the receiver marks it), the tenant's id if known, fake user data only. */
function buildTestEvent(tenantId: string, source: string, now: Date): { id: string; body: string } {
  const id = `${TEST_EVENT_ID_PREFIX}${crypto.randomUUID()}`;
  const envelope = {
    version: 1,
    id,
    source,
    time: now.toISOString(),
    tenantId,
    type: AUTHENTICATOR_EXPIRED,
    data: {
      userId: TEST_EVENT_USER_ID,
      verificationMethod: "PUSH",
      createdAt: new Date(now.getTime() - 30 * 86_400_000).toISOString(),
      expiresAt: now.toISOString(),
      userAuthenticatorId: "ua_console_test",
      deviceName: "Console test device",
      devicePlatform: "IOS",
    },
  };
  return { id, body: JSON.stringify(envelope) };
}

/** The URL with its token shown as its first and last four characters: enough to tell two URLs apart. */
function maskToken(text: string, token: string): string {
  return token ? text.replaceAll(token, `${token.slice(0, 4)}…${token.slice(-4)}`) : text;
}

type Answer =
  | { kind: "answered"; status: number; location: string | null; receiverError: { error: string; errorDescription: string } | null }
  | { kind: "timeout" }
  | { kind: "unreachable"; code: string | undefined; words: string };

const receiverErrorSchema = z.object({ error: z.string().max(100), errorDescription: z.string().max(1000) });

async function readBounded(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => {});
      break;
    }
  }
  return Buffer.concat(chunks).toString("utf8");
}

function receiverError(text: string): { error: string; errorDescription: string } | null {
  try {
    const parsed = receiverErrorSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "the connection was reset",
  ENOTFOUND: "no such host name",
  EAI_AGAIN: "the host name could not be looked up",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "the connection timed out",
  EPIPE: "the connection closed while sending",
  UND_ERR_SOCKET: "the other side closed the connection",
  UND_ERR_CONNECT_TIMEOUT: "the connection timed out",
  DEPTH_ZERO_SELF_SIGNED_CERT: "its TLS certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "its TLS certificate is signed by an untrusted authority",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "its TLS certificate is not trusted",
  CERT_HAS_EXPIRED: "its TLS certificate has expired",
  ERR_TLS_CERT_ALTNAME_INVALID: "its TLS certificate is for another host name",
  ERR_SSL_WRONG_VERSION_NUMBER: "the TLS handshake failed (https to a port that speaks http?)",
};

/**
 * A failed fetch in words: its system error code (undici puts it in `cause`, or in an AggregateError's
 * `errors`) with what the code means, else the innermost message (never a stack).
 */
export function describeNetworkError(error: unknown, url: string): { code: string | undefined; words: string } {
  let current: unknown = error;
  let message = "";
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const e = current as { code?: unknown; errors?: unknown[]; cause?: unknown; message?: unknown };
    if (typeof e.code === "string") return { code: e.code, words: NETWORK_ERRORS[e.code] ?? `a network error (${e.code})` };
    if (typeof e.message === "string" && e.message) message = e.message;
    current = e.cause ?? e.errors?.[0];
  }
  // fetch refuses the ports of other protocols (1, 9, 25, 6000, ...) before connecting: https://fetch.spec.whatwg.org/#bad-port
  if (message === "bad port") return { code: undefined, words: `port ${new URL(url).port} is one that fetch refuses to use (reserved for another protocol); use another port` };
  return { code: undefined, words: message ? `a network error (${message.slice(0, 200)})` : "a network error" };
}

/** One POST as the service sends it: JSON, X-Signature-V2, no redirects followed, a deadline. */
async function postTestEvent(url: string, body: string, signature: string): Promise<Answer> {
  const signal = AbortSignal.timeout(TEST_EVENT_TIMEOUT_MS);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Signature-V2": signature, "User-Agent": "tenant-console-test-event" },
      body,
      redirect: "manual",
      cache: "no-store",
      signal,
    });
    const text = await readBounded(response);
    return { kind: "answered", status: response.status, location: response.headers.get("location"), receiverError: receiverError(text) };
  } catch (error) {
    if (signal.aborted) return { kind: "timeout" };
    return { kind: "unreachable", ...describeNetworkError(error, url) };
  }
}

const CHECK_PUBLIC_URL = "Check CONSOLE_PUBLIC_URL (or NEXTAUTH_URL when it is not set): it must be the address the service reaches this console at.";

type Interpreted = Pick<TestEventReport, "outcome" | "headline" | "explanation" | "receiverSaid">;

const signatureWords: Record<string, string> = { verified_key1: "with key 1", verified_key2: "with key 2" };

/** What an answer means for the person who pressed the button; `stored` is the row this console holds, if any. */
function interpret(answer: Answer, maskedUrl: string, token: string, stored: { signatureStatus: string } | undefined): Interpreted {
  if (answer.kind === "timeout") {
    return {
      outcome: "timeout",
      headline: `No answer within ${TEST_EVENT_TIMEOUT_MS / 1000} s.`,
      explanation: `The address took longer than ${TEST_EVENT_TIMEOUT_MS / 1000} seconds to answer: the receiver, or a proxy or firewall in front of it, is slow or drops the request. The service would give up and retry the same way. ${CHECK_PUBLIC_URL}`,
      receiverSaid: null,
    };
  }
  if (answer.kind === "unreachable") {
    const code = answer.code && NETWORK_ERRORS[answer.code] ? ` (${answer.code})` : "";
    return {
      outcome: "unreachable",
      headline: `Could not reach ${maskedUrl}: ${maskToken(answer.words, token)}${code}.`,
      explanation: `Nothing answered at that address from this server. ${CHECK_PUBLIC_URL}`,
      receiverSaid: null,
    };
  }
  const { status, receiverError: said } = answer;
  const receiverSaid = said ? maskToken(`${said.error}: ${said.errorDescription}`, token) : null;
  if (status >= 200 && status < 300) {
    if (stored) {
      const verified = signatureWords[stored.signatureStatus];
      return {
        outcome: "delivered",
        headline: verified ? `Delivered: the receiver verified it ${verified} and stored it.` : "Delivered and stored, but not verified: the connection holds no server key now.",
        explanation: "The event is in the webhook log with a Test badge; test events are left out of the overview's counts and charts.",
        receiverSaid,
      };
    }
    return {
      outcome: "elsewhere",
      headline: `The address answered HTTP ${status}, but the event is not in this console's log.`,
      explanation: `Something else answers at that address: another console, or a proxy that answers for it. The service's real events would go there too. ${CHECK_PUBLIC_URL}`,
      receiverSaid,
    };
  }
  if (status >= 300 && status < 400) {
    const to = answer.location ? ` to ${maskToken(answer.location, token)}` : "";
    return {
      outcome: "redirect",
      headline: `A redirect (HTTP ${status}${to}): a proxy or the wrong scheme (http vs https) is in the way.`,
      explanation: `The service does not follow redirects, so its events would be lost. ${CHECK_PUBLIC_URL}`,
      receiverSaid,
    };
  }
  return { outcome: "refused", ...refusal(status, said?.errorDescription ?? null), receiverSaid };
}

/** A 4xx or 5xx in words; the receiver's `{ error, errorDescription }` tells its own refusals from a proxy's. */
function refusal(status: number, description: string | null): { headline: string; explanation: string } {
  if (status === 401 && description?.includes("timestamp")) {
    return {
      headline: "Refused (HTTP 401): the signature's timestamp is outside the receiver's 5-minute window.",
      explanation: "The receiver's clock and this server's differ by more than 5 minutes: keep both in time (NTP).",
    };
  }
  if (status === 401) {
    return {
      headline: "Refused (HTTP 401): bad signature.",
      explanation: `The key this console holds does not match what the receiver at that URL checks: the URL probably reaches another console (one that holds another key for this token), or a proxy changes the body on the way. ${CHECK_PUBLIC_URL}`,
    };
  }
  if (status === 404 && description !== null) {
    return {
      headline: "Refused (HTTP 404): unknown webhook URL.",
      explanation: `The receiver at that address does not know this URL's token, so it is not this console: CONSOLE_PUBLIC_URL probably points at another console, or the URL was just regenerated. ${CHECK_PUBLIC_URL}`,
    };
  }
  if (status === 404) {
    return {
      headline: "Not found (HTTP 404): no webhook receiver answers at that address.",
      explanation: `A web server answered, but not a console's receiver (another site, or a proxy that does not pass /api/webhooks/ on). ${CHECK_PUBLIC_URL}`,
    };
  }
  if (status === 503 && description !== null) {
    return {
      headline: "The receiver could not store it (HTTP 503).",
      explanation: "The console that received it could not write to its database; the service retries such deliveries. Look at that console's logs.",
    };
  }
  if (status >= 500) {
    return {
      headline: `A server in the way failed (HTTP ${status}).`,
      explanation: `A proxy or load balancer in front of the console answered instead of the receiver: the console behind it may be down, or not reachable from it. ${CHECK_PUBLIC_URL}`,
    };
  }
  return {
    headline: `Refused (HTTP ${status}).`,
    explanation: description ? "The receiver refused the request; its words are below." : `Something at that address refused the request. ${CHECK_PUBLIC_URL}`,
  };
}

/** The tenant's id, from an event it sent (every event of a connection carries the same); null before the first. */
async function knownTenantId(connectionId: string): Promise<string | null> {
  const db = await getDb();
  const [row] = await db
    .select({ tenantId: webhookEvents.tenantId })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.connectionId, connectionId), eq(webhookEvents.isTest, false)))
    .limit(1);
  return row?.tenantId ?? null;
}

async function storedEvent(connectionId: string, eventId: string) {
  const db = await getDb();
  const [row] = await db
    .select({ id: webhookEvents.id, signatureStatus: webhookEvents.signatureStatus })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.connectionId, connectionId), eq(webhookEvents.eventId, eventId)))
    .limit(1);
  return row;
}

/** The log's view of one stored test event: the connection's test events, that one open. */
function testEventLogHref(connectionId: string, rowId: number): string {
  return `/webhooks?${new URLSearchParams({ connectionId, test: "only", event: String(rowId) }).toString()}`;
}

const unreadable = (what: string) => (error: unknown) => {
  if (error instanceof SecretDecryptionError) return { unreadable: what };
  throw error;
};

/**
 * Sends the test event and reports what came back. A refusal by the receiver is a report, not a
 * failure of the action: `ok: false` only when nothing could be sent (no such connection, no server key).
 * Audited as `webhook.test_sent` with its outcome and the HTTP status.
 */
export async function sendTestEvent(actor: AuditActor, input: SendTestEventInput): Promise<ActionResult<{ report: TestEventReport }>> {
  const parsed = sendTestEventSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: "That is not a connection's id." };
  const db = await getDb();
  const [connection] = await db.select({ id: connections.id, name: connections.name }).from(connections).where(eq(connections.id, parsed.data.connectionId)).limit(1);
  if (!connection) return { ok: false, error: "This connection no longer exists." };

  const key = await readConnectionSecret(connection.id, "server").catch(unreadable("key"));
  if (key === undefined) return { ok: false, error: TEST_EVENT_NEEDS_SERVER_KEY };
  if (typeof key !== "string") return { ok: false, error: "The stored server key cannot be read: enter it again in Settings and keys." };
  const url = await webhookUrlFor(connection.id).catch(unreadable("url"));
  if (url === undefined) return { ok: false, error: "This connection no longer exists." };
  if (typeof url !== "string") return { ok: false, error: "The webhook URL cannot be read: regenerate it on this page." };

  const { origin, pathname } = new URL(url);
  const token = pathname.split("/").pop() ?? "";
  const maskedUrl = maskToken(url, token);
  const now = new Date();
  const event = buildTestEvent((await knownTenantId(connection.id)) ?? PLACEHOLDER_TENANT_ID, origin, now);
  const signature = signatureHeader(event.body, Math.floor(now.getTime() / 1000), [key]);

  const started = performance.now();
  const answer = await postTestEvent(url, event.body, signature);
  const ms = Math.round(performance.now() - started);
  const status = answer.kind === "answered" ? answer.status : null;
  const stored = status !== null && status >= 200 && status < 300 ? await storedEvent(connection.id, event.id) : undefined;
  const report: TestEventReport = {
    ...interpret(answer, maskedUrl, token, stored),
    url: maskedUrl,
    status,
    ms,
    logHref: stored ? testEventLogHref(connection.id, stored.id) : null,
  };

  await recordAudit({
    actor,
    action: "webhook.test_sent",
    outcome: report.outcome === "delivered" ? "success" : "failure",
    connection,
    target: event.id,
    httpStatus: status ?? undefined,
    details: { outcome: report.outcome, ms, ...(answer.kind === "unreachable" && answer.code ? { networkError: answer.code } : {}) },
  });
  logger.info("test event sent", { connectionId: connection.id, eventId: event.id, outcome: report.outcome, status, ms });
  return { ok: true, report };
}
