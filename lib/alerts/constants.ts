/**
 * The alerts' vocabulary: each condition in words, its threshold's default and range, and the lifecycle's
 * fixed times. Client-safe (no imports but the names), so the pages and the threshold form share it with the evaluator.
 */

import { ALERT_KIND_LABELS } from "./kind-labels";

export const ALERT_KINDS = [
  "silence",
  "bad_signatures",
  "unsigned_events",
  "late_events",
  "receiver_errors",
  "destination_failing",
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const ALERT_STATES = ["open", "resolved"] as const;
export type AlertState = (typeof ALERT_STATES)[number];

/** Each condition's name (./kind-labels.ts), and what it usually means for the reader. */
export const ALERT_KIND_TEXT: Record<AlertKind, { label: string; meaning: string }> = {
  silence: {
    label: ALERT_KIND_LABELS.silence,
    meaning:
      "No event arrived for hours in which this connection received events on other days this week: the webhook URL may have changed at the service, or the service stopped sending.",
  },
  bad_signatures: {
    label: ALERT_KIND_LABELS.bad_signatures,
    meaning:
      "Deliveries are refused because their signature matches none of the console's server keys: the server key was probably rotated at the service. Enter the new one.",
  },
  unsigned_events: {
    label: ALERT_KIND_LABELS.unsigned_events,
    meaning:
      "Deliveries arrived without a signature on a connection that holds a server key: someone other than the service may be posting to its URL.",
  },
  late_events: {
    label: ALERT_KIND_LABELS.late_events,
    meaning: "Events arrived more than 24 hours after the authenticator expired, later than the service promises.",
  },
  receiver_errors: {
    label: ALERT_KIND_LABELS.receiver_errors,
    meaning:
      "The console answered deliveries with a server error (5xx), so the service must send them again: the database was failing or the keys could not be read.",
  },
  destination_failing: {
    label: ALERT_KIND_LABELS.destination_failing,
    meaning:
      "A forwarding destination has failed every attempt for a while, or was paused after a day of failures: the tenant's own handler is not getting its events.",
  },
};

/**
 * A threshold: its default, its range, and its unit in words. `silenceHours`' default comes from
 * CONSOLE_ALERT_SILENCE_HOURS.
 */
export const THRESHOLDS = {
  silenceHours: {
    kind: "silence",
    label: "Silence after",
    unit: "hours without an event",
    default: 2,
    min: 1,
    max: 72,
  },
  badSignatures: {
    kind: "bad_signatures",
    label: "Bad signatures",
    unit: "refusals in 15 min",
    default: 5,
    min: 1,
    max: 10_000,
  },
  unsignedEvents: {
    kind: "unsigned_events",
    label: "Unsigned deliveries",
    unit: "in an hour",
    default: 1,
    min: 1,
    max: 10_000,
  },
  lateEvents: { kind: "late_events", label: "Late events", unit: "in an hour", default: 1, min: 1, max: 10_000 },
  receiverErrors: {
    kind: "receiver_errors",
    label: "Receiver errors",
    unit: "5xx answers in an hour",
    default: 1,
    min: 1,
    max: 10_000,
  },
  destinationFailingMinutes: {
    kind: "destination_failing",
    label: "Destination failing for",
    unit: "minutes (0: at the first failure)",
    default: 60,
    min: 0,
    max: 1_440,
  },
} as const satisfies Record<
  string,
  { kind: AlertKind; label: string; unit: string; default: number; min: number; max: number }
>;
export type ThresholdName = keyof typeof THRESHOLDS;
export const THRESHOLD_NAMES = Object.keys(THRESHOLDS) as ThresholdName[];

/** The windows the counts are taken over. */
export const BAD_SIGNATURE_WINDOW_MINUTES = 15;
export const COUNT_WINDOW_MINUTES = 60;
/** Silence counts only in hours that had traffic on one of this many days before. */
export const SILENCE_LOOKBACK_DAYS = 7;

/** While an alert stays open, unacknowledged and not muted, a reminder goes out at most this often. */
export const REMINDER_HOURS = 6;
/** The mute choices the Alerts page offers, in hours. */
export const MUTE_HOURS = [1, 4, 24, 168] as const;

/** A notice's change: its event type in the signed JSON, and its word. */
export const NOTICE_CHANGES = {
  opened: "alert.opened",
  resolved: "alert.resolved",
  reminder: "alert.reminder",
} as const;
export type NoticeChange = keyof typeof NOTICE_CHANGES;

/** The most webhook notice targets an admin may add on the Alerts page (the environment's come on top). */
export const MAX_NOTICE_TARGETS = 10;
/** The event type of the signed notice "Send a test" posts to a target. */
export const TEST_NOTICE_TYPE = "alert.test";

/** The names the Alerts page gives the targets the console's configuration sets (docs/alerts.md names the settings). */
export const ENVIRONMENT_TARGET_NAMES = {
  webhook: "Webhooks of the console's configuration",
  email: "Email of the console's configuration",
} as const;
