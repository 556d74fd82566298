import type { ActionFailure, ActionResult } from "@/lib/call-action";

import type { AlertKind, AlertState, ThresholdName } from "./constants";

/** Shapes the alerts' pages and API use (times as UTC ISO strings). Client-safe. */

/** What the evaluator measured for an alert: the count against its threshold, and what the words need. */
export type AlertMeasure = {
  /** The count that crossed the threshold (for silence: the hours since the last event). */
  value: number;
  threshold: number;
  /** The window the count covers, in minutes (silence: none). */
  windowMinutes: number | null;
  /** The connection's newest event (silence). */
  lastEventAt?: string | null;
  /** destination_failing: the destination's name, and whether it was paused. */
  destinationName?: string;
  paused?: boolean;
  failingSince?: string | null;
  /** destination_failing: why it cannot sign, in words (it fired at once); null or absent when it can. */
  signingProblem?: string | null;
  /**
   * destination_failing: its circuit breaker, tripped since when and probing next when; null or absent while
   * closed.
   */
  tripped?: { since: string; probeAt: string | null } | null;
};

export type AlertSummary = {
  id: string;
  kind: AlertKind;
  state: AlertState;
  connection: { id: string; name: string; region: string };
  /** The destination's id for destination_failing, else null. */
  subject: string | null;
  /** The condition in one line, with its numbers. */
  summary: string;
  measure: AlertMeasure;
  openedAt: string;
  lastSeenAt: string;
  /** Found clear since then; it resolves once clear for CONSOLE_ALERT_HOLD_SECONDS. */
  clearSince: string | null;
  resolvedAt: string | null;
  acknowledgedAt: string | null;
  /** The name (or, failing one, the email) of who acknowledged it; null when nobody did or the user was removed. */
  acknowledgedBy: string | null;
  mutedUntil: string | null;
  /** The console's page where the alert's events are: the log filtered to them, or the destinations. */
  href: string;
  notices: NoticeSummary;
};

/** What the banner and the navigation's count show of an open alert; an acknowledged one is counted apart. */
export type BannerAlert = { kind: AlertKind; connectionName: string; acknowledged: boolean };

/** How an alert's notices fared. `problem`: the last failed attempt's outcome while one is retrying or has failed. */
export type NoticeSummary = { sent: number; pending: number; failed: number; problem: string | null };

export type AlertPage = { alerts: AlertSummary[]; total: number; lastEvaluatedAt: string | null };

/** A connection's thresholds: what is in force, which were set (null: the default), and the defaults. */
export type ConnectionThresholds = {
  connectionId: string;
  values: Record<ThresholdName, number>;
  set: Record<ThresholdName, number | null>;
  defaults: Record<ThresholdName, number>;
};

/** Saving thresholds: a refusal names the field at fault. */
export type ThresholdsResult = ActionResult & { field?: string };

/**
 * A webhook (or email) target of the notices, as admins see it on the Alerts page: never a secret; of a
 * page target's URL its origin and path (a query may carry a credential), of the environment's its origin
 * (support: every URL's origin only).
 */
export type NoticeTargetSummary = {
  /** A page target's id; null for one the environment sets, which only the environment can remove. */
  id: string | null;
  source: "environment" | "page";
  channel: "webhook" | "email";
  /** A page target's name; for the environment's, the variable that sets it. */
  name: string;
  /** A webhook's URL: origin and path (the environment's: origin); for email, how many recipients. */
  where: string;
  createdAt: string | null;
  /** The name (or, failing one, the email) of the admin who added it; null for the environment's, or a removed user. */
  createdBy: string | null;
};

/** Adding a notice target: its Standard Webhooks secret, shown this once; a refusal names the field at fault. */
export type NoticeTargetSecretResult =
  { ok: true; id: string; name: string; secret: string } | (ActionFailure & { field?: "name" | "url" });

/** A test notice: what the target answered, in words. */
export type TestNoticeResult = ActionResult<{ outcome: string }>;
