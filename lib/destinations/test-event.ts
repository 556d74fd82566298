import "server-only";

import crypto from "node:crypto";

import { recordAudit, type AuditActor } from "@/lib/audit/audit";
import { getDb } from "@/lib/db";
import { forwardAttempts, forwardDeliveries } from "@/lib/db/forwarding-schema";
import { outboundPolicyFromEnv, type OutboundPolicy } from "@/lib/outbound/address-policy";
import { postGuarded } from "@/lib/outbound/guarded-post";
import { DEFAULT_EVENT_TYPE, TEST_EVENT_ID_PREFIX } from "@/lib/webhooks/constants";
import { testEventTenantId } from "@/lib/webhooks/webhooks";

import { findDestination, GONE } from "./find";
import { answerOutcome, ATTEMPT_TIMEOUT_MS, MAX_ANSWER_BYTES, storable } from "./forward";
import { destinationIdSchema } from "./schemas";
import { signersFor } from "./signers";
import { forwardHeaders } from "./signing";
import type { DestinationTestResult } from "./types";

/**
 * "Send a test event" on a destination's page: a sample authenticator.expired with a test id (TEST_EVENT_ID_PREFIX,
 * so a handler can tell it), signed exactly as the destination signs its forwards and sent at once through
 * lib/outbound, off or paused alike; recorded as a delivery of origin `test` with its attempt, and audited.
 */

/** The sample: fake user data only, never a person's. */
function testEnvelope(tenantId: string, now: Date) {
  const id = `${TEST_EVENT_ID_PREFIX}${crypto.randomUUID()}`;
  const body = JSON.stringify({
    version: 1,
    id,
    source: "console-test",
    time: now.toISOString(),
    tenantId,
    type: DEFAULT_EVENT_TYPE,
    data: {
      userId: "usr_console_test",
      verificationMethod: "PUSH",
      createdAt: new Date(now.getTime() - 30 * 86_400_000).toISOString(),
      expiresAt: now.toISOString(),
      userAuthenticatorId: "ua_console_test",
      deviceName: "Console test device",
      devicePlatform: "IOS",
    },
  });
  return { id, body };
}

export async function sendDestinationTestEvent(
  actor: AuditActor,
  raw: unknown,
  policy: OutboundPolicy = outboundPolicyFromEnv(),
): Promise<DestinationTestResult> {
  const parsed = destinationIdSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "Check the request." };
  const found = await findDestination(parsed.data.connectionId, parsed.data.destinationId);
  if (!found) return GONE;
  const { row, connection } = found;
  const signer = (await signersFor([row])).get(row.id)!;
  if ("problem" in signer) return { ok: false, error: signer.problem };

  const startedAt = new Date();
  const event = testEnvelope(await testEventTenantId(connection.id), startedAt);
  // The console made this event itself, so it vouches for it: the handler takes the path a verified event takes.
  const result = await postGuarded(row.url, {
    headers: forwardHeaders(signer, event.id, event.body, "verified", startedAt),
    body: event.body,
    timeoutMs: ATTEMPT_TIMEOUT_MS,
    maxResponseBytes: MAX_ANSWER_BYTES,
    policy,
  });
  const answered = result.kind === "answered" ? { status: result.status, ...answerOutcome(result.status) } : null;
  const attempt = {
    status: answered?.status ?? null,
    ok: answered?.ok ?? false,
    outcome: answered?.outcome ?? (result.kind === "failed" ? result.words : ""),
    latencyMs: result.latencyMs,
  };
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [delivery] = await tx
      .insert(forwardDeliveries)
      .values({
        destinationId: row.id,
        connectionId: connection.id,
        eventId: event.id,
        state: attempt.ok ? "delivered" : "failed",
        origin: "test",
        attempts: 1,
        dueAt: startedAt,
        createdAt: startedAt,
        finishedAt: new Date(),
        lastOutcome: attempt.outcome,
      })
      .returning({ id: forwardDeliveries.id });
    await tx.insert(forwardAttempts).values({
      deliveryId: delivery!.id,
      destinationId: row.id,
      startedAt,
      ...attempt,
      responseBody: result.kind === "answered" ? storable(result.body) : null,
    });
    await recordAudit(
      {
        actor,
        action: "destination.test_sent",
        outcome: attempt.ok ? "success" : "failure",
        connection,
        target: row.name,
        details: { eventId: event.id, status: attempt.status, outcome: attempt.outcome },
      },
      tx,
    );
  });
  return {
    ok: true,
    delivered: attempt.ok,
    status: attempt.status,
    durationMs: attempt.latencyMs,
    ...(attempt.ok ? {} : { error: attempt.outcome }),
    eventId: event.id,
  };
}
