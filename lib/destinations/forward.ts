import "server-only";

import { inArray } from "drizzle-orm";

import { getDb } from "@/lib/db";
import { forwardDestinations } from "@/lib/db/forwarding-schema";
import { errorMessage } from "@/lib/error-message";
import type { OutboundPolicy } from "@/lib/outbound/address-policy";
import { postGuarded } from "@/lib/outbound/guarded-post";

import { MAX_ATTEMPTS, retryDelaySeconds } from "./constants";
import type { AttemptRecord, TakenDelivery } from "./outbox";
import { startWithinCap } from "./pacing";
import { signersFor } from "./signers";
import { forwardHeaders } from "./signing";
import { verificationOf, whyNotForwarded } from "./verdict";

/** An attempt's limits: no answer within this is a failed attempt, and at most this much of an answer is kept. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
export const MAX_ANSWER_BYTES = 4 * 1024;

const nextAfterFailure = (attempts: number): AttemptRecord["next"] =>
  attempts >= MAX_ATTEMPTS ? { state: "failed" } : { state: "pending", retrySeconds: retryDelaySeconds(attempts) };

/**
 * The attempt of a taken delivery that the console itself failed to make or to finish (a throw while
 * starting a batch's attempts, an attempt that rejected): failed with the reason, retried on the usual
 * schedule, and not held against the destination, whose health it says nothing of.
 */
export function attemptNotMade(delivery: TakenDelivery, error: unknown): AttemptRecord {
  return {
    deliveryId: delivery.id,
    destinationId: delivery.destinationId,
    startedAt: new Date(),
    latencyMs: 0,
    status: null,
    ok: false,
    outcome: `the console could not make this attempt: ${errorMessage(error)}`,
    responseBody: null,
    countsAgainstDestination: false,
    next: nextAfterFailure(delivery.attempts),
  };
}

/** A text column cannot hold NUL: one in an answer would make the database refuse its whole batch of attempts. */
const storable = (answer: string) => answer.replaceAll("\u0000", "\uFFFD");

/** What an answer says in words: delivered, or why not. */
function answerOutcome(status: number): { ok: boolean; outcome: string } {
  if (status >= 200 && status < 300) return { ok: true, outcome: `delivered: answered ${status}` };
  if (status >= 300 && status < 400)
    return {
      ok: false,
      outcome: `answered ${status}, a redirect (not followed: point the destination at the final URL)`,
    };
  return { ok: false, outcome: `answered ${status}` };
}

/** Waits until `at` (a rate cap's slot); at once when it has passed. */
const until = (at: Date) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at.getTime() - Date.now())));

/**
 * Starts one attempt of each taken delivery, side by side, each at its rate slot, and answers one
 * promise per delivery, so a caller can record each as it ends rather than wait for the slowest.
 */
export async function startAttempts(
  deliveries: readonly TakenDelivery[],
  policy: OutboundPolicy,
): Promise<Array<Promise<AttemptRecord>>> {
  if (deliveries.length === 0) return [];
  const db = await getDb();
  const destinationIds = [...new Set(deliveries.map((d) => d.destinationId))];
  const destinations = await db
    .select()
    .from(forwardDestinations)
    .where(inArray(forwardDestinations.id, destinationIds));
  const byId = new Map(destinations.map((d) => [d.id, d]));
  const signers = await signersFor(destinations);

  return deliveries.map(async (delivery): Promise<AttemptRecord> => {
    await until(delivery.sendAt);
    await startWithinCap(delivery.destinationId, byId.get(delivery.destinationId)?.maxPerSecond ?? null);
    const startedAt = new Date();
    const base = {
      deliveryId: delivery.id,
      destinationId: delivery.destinationId,
      startedAt,
      latencyMs: 0,
      status: null,
      responseBody: null,
    };
    const destination = byId.get(delivery.destinationId);
    const { body } = delivery;
    // Failures that say nothing of the destination's health: its breaker and failing time do not count them.
    const notItsFault = { ...base, ok: false, countsAgainstDestination: false } as const;
    if (!destination) return { ...notItsFault, outcome: "the destination was removed", next: { state: "failed" } };
    if (body === null)
      return {
        ...notItsFault,
        outcome: "the event is no longer stored (removed by the retention period)",
        next: { state: "failed" },
      };
    // Queueing already holds to this rule; a resend, a replay or a row queued before it never gets past it.
    const refused = whyNotForwarded(
      destination.signing,
      destination.includeUnverified,
      delivery.signatureStatus ?? "unsigned",
    );
    if (refused) return { ...notItsFault, outcome: `not sent: ${refused}`, next: { state: "failed" } };
    const signer = signers.get(destination.id)!;
    if ("problem" in signer)
      return { ...base, ok: false, outcome: signer.problem, next: nextAfterFailure(delivery.attempts) };

    const result = await postGuarded(destination.url, {
      headers: forwardHeaders(
        signer,
        delivery.eventId,
        body,
        verificationOf(delivery.signatureStatus ?? "unsigned"),
        startedAt,
      ),
      body,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      maxResponseBytes: MAX_ANSWER_BYTES,
      policy,
    });
    if (result.kind === "failed")
      return {
        ...base,
        latencyMs: result.latencyMs,
        ok: false,
        outcome: result.words,
        next: nextAfterFailure(delivery.attempts),
      };
    const { ok, outcome } = answerOutcome(result.status);
    return {
      ...base,
      latencyMs: result.latencyMs,
      status: result.status,
      ok,
      outcome,
      responseBody: storable(result.body),
      next: ok ? { state: "delivered" } : nextAfterFailure(delivery.attempts),
    };
  });
}

/** Sends each taken delivery once, side by side, and answers what each attempt did once all have ended. */
export async function attemptDeliveries(
  deliveries: readonly TakenDelivery[],
  policy: OutboundPolicy,
): Promise<AttemptRecord[]> {
  return Promise.all(await startAttempts(deliveries, policy));
}
