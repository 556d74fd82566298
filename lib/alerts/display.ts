import { filtersToQuery } from "@/lib/webhooks/constants";

import { BAD_SIGNATURE_WINDOW_MINUTES, COUNT_WINDOW_MINUTES, type AlertKind } from "./constants";
import type { AlertMeasure } from "./types";

/** An alert in words and where its events are: shared by the pages, the API and the notices. */

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The condition in one line, with its numbers; never an event's content. `asOfLastSeen`: told of an
 * alert whose condition has cleared, as it stood when last seen (a destination "had failed", not "has").
 */
export function alertSummary(kind: AlertKind, m: AlertMeasure, { asOfLastSeen = false } = {}): string {
  switch (kind) {
    case "silence":
      return `No event for ${plural(m.value, "hour")} (threshold ${m.threshold} h), in hours that had events on other days this week.`;
    case "bad_signatures":
      return `${plural(m.value, "delivery", "deliveries")} refused for a bad signature in ${BAD_SIGNATURE_WINDOW_MINUTES} min (threshold ${m.threshold}): the server key was probably rotated at the service.`;
    case "unsigned_events":
      return `${plural(m.value, "delivery", "deliveries")} without a signature in the last hour (threshold ${m.threshold}), though the connection holds a server key.`;
    case "late_events":
      return `${plural(m.value, "event")} arrived more than 24 h after expiring in the last hour (threshold ${m.threshold}).`;
    case "receiver_errors":
      return `${plural(m.value, "delivery", "deliveries")} answered with a server error (5xx) in the last hour (threshold ${m.threshold}).`;
    case "destination_failing":
      return destinationSummary(m, asOfLastSeen);
  }
}

/**
 * A failing destination: paused, unable to sign (words of lib/destinations/signers.ts), or failing, and whether its
 * breaker is tripped.
 */
function destinationSummary(m: AlertMeasure, asOfLastSeen: boolean): string {
  const name = `Destination ${m.destinationName ?? ""}`;
  if (m.paused) {
    const paused = `${name} was paused after a day of failed attempts`;
    return asOfLastSeen ? `${paused}.` : `${paused}: nothing is sent to it until it is resumed.`;
  }
  if (m.signingProblem)
    return `${name} ${asOfLastSeen ? "could not" : "cannot"} sign its forwards, so every attempt fails: ${m.signingProblem}`;
  const failing = `${name} ${asOfLastSeen ? "had" : "has"} failed every attempt for ${m.value === 0 ? "less than a minute" : plural(m.value, "minute")} (threshold ${m.threshold} min).`;
  if (!m.tripped || asOfLastSeen) return failing;
  return `${failing} Its circuit breaker is tripped: the console sends one delivery at a time as a probe${m.tripped.probeAt ? `, the next at ${m.tripped.probeAt}` : ""}, and the rest wait.`;
}

const WINDOW_MS: Partial<Record<AlertKind, number>> = {
  bad_signatures: BAD_SIGNATURE_WINDOW_MINUTES * 60_000,
  unsigned_events: COUNT_WINDOW_MINUTES * 60_000,
  late_events: COUNT_WINDOW_MINUTES * 60_000,
  receiver_errors: COUNT_WINDOW_MINUTES * 60_000,
};

/**
 * Where an alert's events are: the log filtered to the connection and to what was counted, from the
 * start of the window that opened it to its resolution (still open: up to now). A destination's alert
 * leads to the connection's page, where its destinations are; silence to the connection's last events.
 */
export function alertHref(alert: {
  kind: AlertKind;
  connectionId: string;
  openedAt: string;
  resolvedAt: string | null;
}): string {
  const { kind, connectionId } = alert;
  if (kind === "destination_failing") return `/connections/${connectionId}#destinations-heading`;
  if (kind === "silence")
    return `/webhooks?${filtersToQuery({ connectionId, type: "all", received: "7d", test: "exclude" })}`;
  const range = {
    receivedFrom: new Date(Date.parse(alert.openedAt) - (WINDOW_MS[kind] ?? 0)).toISOString(),
    receivedTo: alert.resolvedAt ?? undefined,
  };
  if (kind === "late_events")
    return `/webhooks?${filtersToQuery({ connectionId, type: "all", delay: "gt24h", test: "exclude", ...range })}`;
  const reason = kind === "receiver_errors" ? "receiver_error" : "bad_signature";
  return `/webhooks?${filtersToQuery({ tab: "rejections", connectionId, reason, ...range })}`;
}

/** Where the server key is entered: the bad-signature alert's fix. */
export const serverKeyHref = (connectionId: string) => `/connections/${connectionId}#serverKey`;
