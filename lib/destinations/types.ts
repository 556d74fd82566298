import type { ActionFailure } from "@/lib/call-action";

import type { SigningModeName } from "./constants";

/** What pages may know of a destination: never its secret. Client-safe. */

/**
 * delivered: the last attempt was delivered (or none yet); failing: the last one failed, or it cannot
 * sign; tripped: its circuit breaker opened after a run of failures, so one delivery at a time probes
 * it; paused: by the 24 h rule; off: by an admin.
 */
export type DestinationState = "delivered" | "failing" | "tripped" | "paused" | "off";

/** A tripped breaker: since when, and when the next probe goes (null: one is under way or due). */
export type TrippedBreaker = { since: string; probeAt: string | null };

export type DestinationHealth = {
  state: DestinationState;
  /** Attempts in the last 24 h, and those delivered. */
  attempts24h: number;
  delivered24h: number;
  /** delivered24h / attempts24h, null without attempts. */
  successRate: number | null;
  /** The 95th percentile of the attempts' latency over 24 h, in ms; null without attempts. */
  p95LatencyMs: number | null;
  /** Deliveries waiting for their next attempt. */
  pending: number;
  failingSince: string | null;
  pausedAt: string | null;
  tripped: TrippedBreaker | null;
  /** Why it cannot sign now, in words that say what to do (an unreadable secret or server key); null: it can. */
  signingProblem: string | null;
};

export type DestinationSummary = {
  id: string;
  connectionId: string;
  name: string;
  url: string;
  enabled: boolean;
  signing: SigningModeName;
  /** null: every event type (or method). */
  eventTypes: string[] | null;
  verificationMethods: string[] | null;
  /** Standard Webhooks only: it also gets events the console could not verify (webhook-verification: unsigned). */
  includeUnverified: boolean;
  /** At most this many deliveries start per second; null: no cap. */
  maxPerSecond: number | null;
  /** While a rotated Standard Webhooks secret still signs, beside the new one. */
  previousSecretExpiresAt: string | null;
  createdAt: string;
  health: DestinationHealth;
};

/** What creating a destination (or rotating its secret) answers: a Standard Webhooks secret, shown this once. */
export type DestinationSecretResult =
  { ok: true; id: string; name: string; secret: string | null } | (ActionFailure & { field?: DestinationField });

export type DestinationField =
  "name" | "url" | "signing" | "includeUnverified" | "maxPerSecond" | "eventTypes" | "verificationMethods";

/** What an edit answers: done, or why not (with the field to fix). */
export type UpdateDestinationResult = { ok: true } | (ActionFailure & { field?: DestinationField });

/** What a test event to a destination did: delivered or not, the answer's status and how long it took. */
export type DestinationTestResult =
  | {
      ok: true;
      delivered: boolean;
      status: number | null;
      durationMs: number;
      /** Why it was not delivered, in words; absent when it was. */
      error?: string;
      eventId: string;
    }
  | ActionFailure;

/** One attempt on a destination's page, newest first. */
export type DestinationAttempt = {
  id: number;
  startedAt: string;
  ok: boolean;
  status: number | null;
  latencyMs: number;
  outcome: string;
  eventId: string;
  /** The event's row in the log (its drawer's link); null once the retention period removed it. */
  eventRowId: number | null;
  /** receipt, resend, replay or test. */
  origin: string;
};

/** A page of a destination's attempts; `nextBefore` is the cursor of the next (older) page, null at the end. */
export type DestinationAttemptPage = { attempts: DestinationAttempt[]; nextBefore: string | null };

/** A destination's attempts over a window, in slots (hours over 24 h, days over 7 days). */
export type DeliveryStats = {
  window: "24h" | "7d";
  attempts: number;
  delivered: number;
  successRate: number | null;
  p95LatencyMs: number | null;
  slots: Array<{ start: string; attempts: number; delivered: number; p95LatencyMs: number | null }>;
};

/** A destination as its own page shows it: its summary, its connection's name and whether it holds a secret. */
export type DestinationDetail = DestinationSummary & { connectionName: string; hasSecret: boolean };

/**
 * A replay's progress: its deliveries by state, and how far queuing has gone (it queues in chunks).
 * queuing while events are still being queued; running while some wait; finished or cancelled after.
 */
export type ReplayProgress = {
  replayId: string;
  connectionId: string;
  destinationName: string;
  /** The events it selected when it started. */
  total: number;
  /** Deliveries queued so far (total once queuing is done). */
  queued: number;
  delivered: number;
  failed: number;
  cancelled: number;
  waiting: number;
  state: "queuing" | "running" | "finished" | "cancelled";
};

/** A replay to a destination that has not finished: another cannot start until it does or is cancelled. */
export type RunningReplay = { replayId: string; startedAt: string; total: number; queued: number; waiting: number };

/** What a replay of the log's filters to one destination would do, said before it starts. */
export type ReplayPreview = {
  /** The events it would send. */
  count: number;
  /** Events the filters select that the destination must not get: stored without a verified signature. */
  skippedUnverified: number;
  /** Why, in a sentence (null when none is skipped so). */
  skippedUnverifiedWhy: string | null;
  /** Events the filters select that the destination's own event types and methods leave out. */
  skippedByFilters: number;
  /** The most one replay may send; a larger one is refused. */
  maxEvents: number;
  /** The destination's rate cap (deliveries per second), null without one. */
  maxPerSecond: number | null;
  running: RunningReplay | null;
};

/**
 * What starting a replay answers; refused while another to the destination runs, with that one's id (to offer
 * cancelling it).
 */
export type StartReplayResult =
  | {
      ok: true;
      replayId: string;
      total: number;
      skippedUnverified: number;
      skippedUnverifiedWhy: string | null;
      skippedByFilters: number;
    }
  | (ActionFailure & { runningReplayId?: string });

export type ForwardAttemptView = {
  startedAt: string;
  status: number | null;
  ok: boolean;
  latencyMs: number;
  outcome: string;
  /** The start of the answer (at most 4 KiB): admins only. */
  responseBody: string | null;
};

/** One destination of the event's connection, with the forwards of this event to it (newest first). */
export type EventForwards = {
  destinationId: string;
  destinationName: string;
  enabled: boolean;
  /** Why the event was never queued to it, in words ("Not forwarded: …"); null when it was. */
  notForwarded: string | null;
  tripped: TrippedBreaker | null;
  deliveries: Array<{
    id: number;
    state: "pending" | "delivered" | "failed" | "cancelled";
    origin: string;
    createdAt: string;
    dueAt: string;
    attempts: ForwardAttemptView[];
  }>;
};
