/**
 * The log's filter vocabulary, client-safe and free of zod: the filter bar, the tables and the drawer
 * import this, so the schemas (lib/webhooks/filters.ts) stay out of the browser bundle.
 */
import { REJECTION_REASON_VALUES } from "./types";

/** Rows per page when the link does not say: what the log shows, and what its skeleton is sized for. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

export const ALL_TYPES = "all";
/** `connectionId=all` asks for every connection; the page without one shows the selected connection. */
export const ALL_CONNECTIONS = "all";
export const DEFAULT_EVENT_TYPE = "authenticator.expired";

/** The event kinds SERVICE-FACTS names; others are stored too and can be typed into the URL. */
export const KNOWN_EVENT_TYPES = ["authenticator.expired", "authenticator.created", "authenticator.updated", "authenticator.deleted"] as const;

/**
 * SERVICE-FACTS' verification methods (its list ends in "...", so the stored values are offered too)
 * and the spec's platforms (6.1 names IOS and ANDROID only).
 */
export const KNOWN_METHODS = ["SMS", "EMAIL_OTP", "EMAIL_MAGIC_LINK", "AUTHENTICATOR_APP", "PASSKEY", "SECURITY_KEY", "PUSH", "WHATSAPP"] as const;
export const KNOWN_PLATFORMS = ["IOS", "ANDROID"] as const;

/**
 * Relative time presets: the link says "last hour", not an instant, so a shared link means the last
 * hour whenever it is opened.
 */
export const RECEIVED_PRESETS = { "1h": { label: "Last hour", ms: 3_600_000 }, "24h": { label: "Last 24 h", ms: 86_400_000 }, "7d": { label: "Last 7 days", ms: 7 * 86_400_000 } } as const;
export type ReceivedPreset = keyof typeof RECEIVED_PRESETS;
export const RECEIVED_PRESET_VALUES = Object.keys(RECEIVED_PRESETS) as ReceivedPreset[];

/** What the filter bar calls each parameter; messages about a link name parameters by these. */
export const FILTER_LABELS: Record<string, string> = {
  connectionId: "Connection",
  type: "Event type",
  verificationMethod: "Method",
  devicePlatform: "Platform",
  userId: "User id",
  userIdMatch: "User id match",
  userAuthenticatorId: "User authenticator id",
  received: "Received",
  receivedFrom: "Received from",
  receivedTo: "Received to",
  expiresFrom: "Expired from",
  expiresTo: "Expired to",
  reason: "Reason",
  cursor: "Page",
  limit: "Rows per page",
};

/** Each refusal reason in words: a label for the filter, and what it usually means for the reader. */
export const REJECTION_REASON_TEXT: Record<(typeof REJECTION_REASON_VALUES)[number], { label: string; explanation: string }> = {
  unknown_token: {
    label: "Unknown webhook URL",
    explanation: "The URL's token matches no connection: the URL was regenerated, or the connection was deleted, and the tenant still posts to the old one.",
  },
  too_large: { label: "Body too large", explanation: "The body was larger than the receiver accepts, so it was not read." },
  unsupported_media_type: { label: "Not JSON", explanation: "The request's Content-Type was not application/json." },
  bad_signature: {
    label: "Bad signature",
    explanation:
      "The X-Signature-V2 header matched none of the connection's server keys — the key was probably rotated at the service and the console still holds the old one (or the header is missing or malformed: the detail says which).",
  },
  stale_timestamp: {
    label: "Stale timestamp",
    explanation: "The signature is authentic but its timestamp is more than 5 minutes from the console's clock: a replay, a long-delayed request, or a clock out of sync.",
  },
  malformed_json: { label: "Malformed JSON", explanation: "The body is not valid JSON." },
  invalid_envelope: { label: "Invalid envelope", explanation: "The JSON lacks a field every event must carry (id, type, time, tenantId), or one has the wrong type." },
  conflicting_redelivery: {
    label: "Conflicting redelivery",
    explanation: "An event with this id was already stored with a different body; the stored one was kept.",
  },
};

export function rejectionReasonText(reason: string): { label: string; explanation: string } {
  return REJECTION_REASON_TEXT[reason as keyof typeof REJECTION_REASON_TEXT] ?? { label: reason, explanation: "A reason this console version does not describe." };
}

/** The query string of a filter set, without defaults, so shared links stay short. */
export function filtersToQuery(filters: Partial<Record<string, string | number | undefined>>, omit: string[] = []): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === "" || omit.includes(key)) continue;
    if (key === "type" && value === DEFAULT_EVENT_TYPE) continue;
    if (key === "userIdMatch" && value === "exact") continue;
    if (key === "limit" && Number(value) === DEFAULT_PAGE_SIZE) continue;
    params.set(key, String(value));
  }
  return params.toString();
}
