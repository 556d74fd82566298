import "server-only";

import crypto from "node:crypto";

import { and, eq } from "drizzle-orm";

import { recordAudit, type AuditActor } from "@/lib/audit/audit";
import type { ActionResult } from "@/lib/call-action";
import { readConnectionSecret } from "@/lib/connections/connections";
import { getDb } from "@/lib/db";
import { connections, webhookEvents } from "@/lib/db/schema";
import { logger } from "@/lib/logger";
import { SecretDecryptionError } from "@/lib/secrets";

import { TEST_EVENT_ID_PREFIX, TEST_EVENT_NEEDS_SERVER_KEY } from "./constants";
import { AUTHENTICATOR_EXPIRED } from "./envelope";
import { sendTestEventSchema, type SendTestEventInput } from "./schemas";
import { signatureHeader } from "./signature";
import { postTestEvent } from "./test-event-post";
import { interpret, maskToken } from "./test-event-report";
import type { TestEventReport } from "./types";
import { webhookUrlFor } from "./url";
import { testEventTenantId } from "./webhooks";

/**
 * "Send a test event": signs a sample authenticator.expired with the connection's server key and POSTs it to the
 * connection's public receiver URL, the path a real delivery takes (DNS, proxies, TLS); a wrong CONSOLE_PUBLIC_URL,
 * a proxy in the way or a key mismatch shows here first, in words.
 */

/** Obviously not a person: the sample names no real user, email or phone. */
export const TEST_EVENT_USER_ID = "usr_console_test";
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
export async function sendTestEvent(
  actor: AuditActor,
  input: SendTestEventInput,
): Promise<ActionResult<{ report: TestEventReport }>> {
  const parsed = sendTestEventSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: "That is not a connection's id." };
  const db = await getDb();
  const [connection] = await db
    .select({ id: connections.id, name: connections.name })
    .from(connections)
    .where(eq(connections.id, parsed.data.connectionId))
    .limit(1);
  if (!connection) return { ok: false, error: "This connection no longer exists." };

  const key = await readConnectionSecret(connection.id, "server").catch(unreadable("key"));
  if (key === undefined) return { ok: false, error: TEST_EVENT_NEEDS_SERVER_KEY };
  if (typeof key !== "string")
    return { ok: false, error: "The stored server key cannot be read: enter it again in Settings and keys." };
  const url = await webhookUrlFor(connection.id).catch(unreadable("url"));
  if (url === undefined) return { ok: false, error: "This connection no longer exists." };
  if (typeof url !== "string")
    return { ok: false, error: "The webhook URL cannot be read: regenerate it on this page." };

  const { origin, pathname } = new URL(url);
  const token = pathname.split("/").pop() ?? "";
  const maskedUrl = maskToken(url, token);
  const now = new Date();
  const event = buildTestEvent(await testEventTenantId(connection.id), origin, now);
  const signature = signatureHeader(event.body, Math.floor(now.getTime() / 1000), [key]);

  const started = performance.now();
  const answer = await postTestEvent(url, event.body, signature);
  const ms = Math.round(performance.now() - started);
  const status = answer.kind === "answered" ? answer.status : null;
  const stored =
    status !== null && status >= 200 && status < 300 ? await storedEvent(connection.id, event.id) : undefined;
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
    details: {
      outcome: report.outcome,
      ms,
      ...(answer.kind === "unreachable" && answer.code ? { networkError: answer.code } : {}),
    },
  });
  logger.info("test event sent", {
    connectionId: connection.id,
    eventId: event.id,
    outcome: report.outcome,
    status,
    ms,
  });
  return { ok: true, report };
}
