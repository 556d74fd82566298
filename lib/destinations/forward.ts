import "server-only";

import type { Attributes } from "@opentelemetry/api";
import { inArray } from "drizzle-orm";

import { getDb } from "@/lib/db";
import { forwardDestinations, type ForwardDestination } from "@/lib/db/forwarding-schema";
import { errorMessage } from "@/lib/error-message";
import type { OutboundPolicy } from "@/lib/outbound/address-policy";
import { postGuarded } from "@/lib/outbound/guarded-post";
import { safeOrigin } from "@/lib/telemetry/redact";
import { SpanKind, traceHeaders, withSpan } from "@/lib/telemetry/tracing";

import { MAX_ATTEMPTS, retryDelaySeconds } from "./constants";
import { isGivenBack, type AttemptOutcome, type GivenBack } from "./leases";
import type { AttemptRecord, TakenDelivery } from "./outbox";
import { startWithinCap } from "./pacing";
import { signersFor, type SignerOrProblem } from "./signers";
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
export const storable = (answer: string) => answer.replaceAll("\u0000", "\uFFFD");

/** What an answer says in words: delivered, or why not. */
export function answerOutcome(status: number): { ok: boolean; outcome: string } {
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
 * promise per delivery, so a caller can record each as it ends rather than wait for the slowest. Once `signal`
 * aborts (the process stopping), an attempt not yet ended is no attempt: its lease is to be given back.
 */
export async function startAttempts(
  deliveries: readonly TakenDelivery[],
  policy: OutboundPolicy,
  signal?: AbortSignal,
): Promise<Array<Promise<AttemptOutcome>>> {
  if (deliveries.length === 0) return [];
  const db = await getDb();
  const destinationIds = [...new Set(deliveries.map((d) => d.destinationId))];
  const destinations = await db
    .select()
    .from(forwardDestinations)
    .where(inArray(forwardDestinations.id, destinationIds));
  const byId = new Map(destinations.map((d) => [d.id, d]));
  const signers = await signersFor(destinations);

  return deliveries.map(async (delivery): Promise<AttemptOutcome> => {
    const givenBack: GivenBack = {
      givenBack: true,
      deliveryId: delivery.id,
      destinationId: delivery.destinationId,
      attempts: delivery.attempts,
    };
    await until(delivery.sendAt);
    await startWithinCap(delivery.destinationId, byId.get(delivery.destinationId)?.maxPerSecond ?? null);
    if (signal?.aborted) return givenBack;
    const destination = byId.get(delivery.destinationId);
    // A child of the receipt's span when it was traced (docs/operations.md, "Traces"); its traceparent is sent.
    return withSpan(
      "forward.attempt",
      { "console.destination_id": delivery.destinationId, "console.attempt": delivery.attempts },
      async (span) => {
        const signer = destination && signers.get(destination.id);
        const record = await attempt(delivery, destination, signer, policy, signal);
        span.setAttributes(record ? attemptAttributes(record, destination) : { "console.outcome": "given_back" });
        return record ?? givenBack;
      },
      { kind: SpanKind.CLIENT, parent: delivery.traceParent },
    );
  });
}

/** What an attempt's span says of it: never the URL's path, query or userinfo (a token may be there), no header. */
function attemptAttributes(record: AttemptRecord, destination: ForwardDestination | undefined): Attributes {
  const outcome = record.ok
    ? "delivered"
    : record.status !== null
      ? "refused"
      : record.countsAgainstDestination === false
        ? "not_sent"
        : "failed";
  return {
    "console.outcome": outcome,
    ...(record.status !== null && { "http.response.status_code": record.status }),
    ...(destination && { "console.destination_origin": safeOrigin(destination.url) }),
  };
}

/**
 * One attempt of a delivery whose rate slot has come: sent, or why not, as the record to write; null when `signal`
 * aborted it (the process stopping): no attempt, its lease to be given back.
 */
async function attempt(
  delivery: TakenDelivery,
  destination: ForwardDestination | undefined,
  signer: SignerOrProblem | undefined,
  policy: OutboundPolicy,
  signal: AbortSignal | undefined,
): Promise<AttemptRecord | null> {
  const startedAt = new Date();
  const base = {
    deliveryId: delivery.id,
    destinationId: delivery.destinationId,
    startedAt,
    latencyMs: 0,
    status: null,
    responseBody: null,
  };
  const { body } = delivery;
  // Failures that say nothing of the destination's health: its breaker and failing time do not count them.
  const notItsFault = { ...base, ok: false, countsAgainstDestination: false } as const;
  if (!destination || !signer)
    return { ...notItsFault, outcome: "the destination was removed", next: { state: "failed" } };
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
  if ("problem" in signer)
    return { ...base, ok: false, outcome: signer.problem, next: nextAfterFailure(delivery.attempts) };

  const result = await postGuarded(destination.url, {
    headers: {
      ...forwardHeaders(
        signer,
        delivery.eventId,
        body,
        verificationOf(delivery.signatureStatus ?? "unsigned"),
        startedAt,
      ),
      // The attempt's span, only while tracing is on: the destination may join the trace.
      ...traceHeaders(),
    },
    body,
    timeoutMs: ATTEMPT_TIMEOUT_MS,
    maxResponseBytes: MAX_ANSWER_BYTES,
    policy,
    signal,
  });
  if (result.kind === "failed" && result.reason === "aborted") return null;
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
}

/** Sends each taken delivery once, side by side, and answers what each attempt did once all have ended. */
export async function attemptDeliveries(
  deliveries: readonly TakenDelivery[],
  policy: OutboundPolicy,
): Promise<AttemptRecord[]> {
  // Without a signal nothing is aborted, so nothing is given back.
  const outcomes = await Promise.all(await startAttempts(deliveries, policy));
  return outcomes.filter((outcome): outcome is AttemptRecord => !isGivenBack(outcome));
}
