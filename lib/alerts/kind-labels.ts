import type { AlertKind } from "./constants";

/**
 * Each alert condition's name. Apart from ./constants.ts (the meanings, thresholds and times): the banner in every
 * page's first-load JS needs the names alone.
 */
export const ALERT_KIND_LABELS: Record<AlertKind, string> = {
  silence: "Webhooks stopped arriving",
  bad_signatures: "Signatures refused",
  unsigned_events: "Unsigned deliveries",
  late_events: "Late events",
  receiver_errors: "Receiver errors",
  destination_failing: "Destination failing",
};
