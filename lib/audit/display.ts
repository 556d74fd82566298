import type { AuditEntry } from "./types";

/** Client-safe: how the audit page words a record's outcome and request id. */

// These records carry the key check's status (lib/connections/verify.ts: a GET of a data point id that cannot exist,
// 404 or 200 meaning the key was accepted), which a bare "HTTP 404" beside "success" would make read as a failure.
const keyCheckActions = new Set(["connection.created", "connection.key_replaced"]);
const keyAccepted = new Set([200, 404]);

export type AuditOutcomeText = { text: string; title?: string };

export function describeAuditOutcome(
  entry: Pick<AuditEntry, "action" | "outcome" | "httpStatus"> & Partial<Pick<AuditEntry, "repeats">>,
): AuditOutcomeText {
  const { action, outcome, httpStatus, repeats } = entry;
  // A record that stands for many (refused sign-ins, counted per 15 minutes): its time is the first one's.
  if (repeats) {
    return repeats.count === 1
      ? { text: outcome }
      : {
          text: `${outcome} · ${repeats.count} attempts`,
          title: `${repeats.count} attempts, the first at the time shown, the last at ${repeats.lastAt.slice(0, 19).replace("T", " ")} UTC: repeats within 15 minutes share one record.`,
        };
  }
  if (httpStatus === null) return { text: outcome };
  if (keyCheckActions.has(action)) {
    return keyAccepted.has(httpStatus)
      ? {
          text: `${outcome} · key verified`,
          title: `The key was checked by reading a data point that cannot exist. The service answered HTTP ${httpStatus}, which means it accepted the key.`,
        }
      : {
          text: `${outcome} · key not verified (HTTP ${httpStatus})`,
          title: `The key could not be checked: the service answered HTTP ${httpStatus}. The key was saved unverified.`,
        };
  }
  if (action === "webhook.test_sent") {
    return {
      text: `${outcome} · HTTP ${httpStatus}`,
      title: "HTTP status the receiver answered the console's test event.",
    };
  }
  return { text: `${outcome} · HTTP ${httpStatus}`, title: "HTTP status of the service call behind this change." };
}

/** The first 8 characters, enough to tell records apart; the page puts the full id in a tooltip. */
export function shortRequestId(requestId: string): string {
  return requestId.length > 8 ? `${requestId.slice(0, 8)}…` : requestId;
}
