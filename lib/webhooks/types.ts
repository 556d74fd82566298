/** Shapes the log's API returns (times as UTC ISO strings), and its refusal reasons in words. Client-safe. */
export const REJECTION_REASON_VALUES = [
  "unknown_token",
  "too_large",
  "unsupported_media_type",
  "bad_signature",
  "stale_timestamp",
  "malformed_json",
  "invalid_envelope",
  "conflicting_redelivery",
  "receiver_error",
] as const;

/** Each refusal reason in words: a label for the filter, and what it usually means for the reader. */
export const REJECTION_REASON_TEXT: Record<
  (typeof REJECTION_REASON_VALUES)[number],
  { label: string; explanation: string }
> = {
  unknown_token: {
    label: "Unknown webhook URL",
    explanation:
      "The URL's token matches no connection: the URL was regenerated, or the connection was deleted, and the tenant still posts to the old one.",
  },
  too_large: {
    label: "Body too large",
    explanation: "The body was larger than the receiver accepts, so it was not read.",
  },
  unsupported_media_type: { label: "Not JSON", explanation: "The request's Content-Type was not application/json." },
  bad_signature: {
    label: "Bad signature",
    explanation:
      "The X-Signature-V2 header matched none of the connection's server keys — the key was probably rotated at the service and the console still holds the old one (or the header is missing or malformed: the detail says which).",
  },
  stale_timestamp: {
    label: "Stale timestamp",
    explanation:
      "The signature is authentic but its timestamp is more than 5 minutes from the console's clock: a replay, a long-delayed request, or a clock out of sync.",
  },
  malformed_json: { label: "Malformed JSON", explanation: "The body is not valid JSON." },
  invalid_envelope: {
    label: "Invalid envelope",
    explanation: "The JSON lacks a field every event must carry (id, type, time, tenantId), or one has the wrong type.",
  },
  conflicting_redelivery: {
    label: "Conflicting redelivery",
    explanation: "An event with this id was already stored with a different body; the stored one was kept.",
  },
  receiver_error: {
    label: "Not stored (server error)",
    explanation:
      "The console could not store the event and answered 503, so the service sends it again: the database failed or timed out (the server log says why).",
  },
};

export function rejectionReasonText(reason: string): { label: string; explanation: string } {
  return (
    REJECTION_REASON_TEXT[reason as keyof typeof REJECTION_REASON_TEXT] ?? {
      label: reason,
      explanation: "A reason this console version does not describe.",
    }
  );
}

/** The spec 6.1 data fields of authenticator.expired, in the spec's order: the log's columns, detail and export. */
export const EXPIRED_DATA_FIELDS = [
  "userId",
  "verificationMethod",
  "createdAt",
  "expiresAt",
  "userAuthenticatorId",
  "deviceName",
  "devicePlatform",
  "email",
  "phoneNumber",
  "credentialId",
  "aaguid",
  "credentialName",
] as const;

export type WebhookEventSummary = {
  id: number;
  connectionId: string;
  connectionName: string | null;
  eventId: string;
  type: string;
  tenantId: string;
  envelopeTime: string;
  firstReceivedAt: string;
  lastReceivedAt: string;
  deliveryCount: number;
  signatureStatus: string;
  /** Sent by the console's "Send a test event", not by the service (lib/webhooks/test-event.ts). */
  isTest: boolean;
  userId: string | null;
  verificationMethod: string | null;
  createdAt: string | null;
  expiresAt: string | null;
  userAuthenticatorId: string | null;
  deviceName: string | null;
  devicePlatform: string | null;
  email: string | null;
  phoneNumber: string | null;
  credentialId: string | null;
  aaguid: string | null;
  credentialName: string | null;
};

export type WebhookEventDetail = WebhookEventSummary & { rawBody: string; piiMasked: boolean };

export type WebhookRejectionSummary = {
  id: number;
  connectionId: string | null;
  connectionName: string | null;
  receivedAt: string;
  status: number;
  reason: string;
  detail: string | null;
  eventId: string | null;
  bodySha256: string;
  headers: Record<string, string>;
};

/**
 * One page of a log, newest first: `nextCursor` reads the older rows after it, `newerCursor` the newer ones before
 * it.
 */
export type Page<T> = { items: T[]; nextCursor: string | null; newerCursor: string | null };

/** Method and platform values the filter bar offers: the documented ones and those seen in recent events. */
export type FilterChoices = { verificationMethods: string[]; devicePlatforms: string[] };

/**
 * What "Send a test event" reports, in words: where the signed sample went and what came back.
 * `delivered` is the one success (this console's receiver verified and stored it); `elsewhere` is a
 * 2xx from something that did not store it here.
 */
export type TestEventReport = {
  outcome: "delivered" | "elsewhere" | "redirect" | "refused" | "unreachable" | "timeout";
  headline: string;
  explanation: string;
  /** The receiver's own `error: errorDescription`, when it answered with one. */
  receiverSaid: string | null;
  /** The public receiver URL used, its token masked. */
  url: string;
  /** The HTTP status, null when nothing answered. */
  status: number | null;
  ms: number;
  /** The stored event in the log (delivered only). */
  logHref: string | null;
};

/** Where an event's forwards stand, summed up: all delivered, some still waiting, or some failing. */
export type ForwardOutcome = "delivered" | "waiting" | "failing";

/** One destination's latest delivery of an event (a resend or replay replaces the earlier one). */
export type DestinationForward = {
  destinationName: string;
  state: ForwardOutcome | "cancelled";
  attempts: number;
};

/** An event's forwards: the outcome the log's row shows (null: not forwarded), and each destination's. */
export type EventForwarding = { outcome: ForwardOutcome | null; destinations: DestinationForward[] };

/** A row of the log: the event and where its forwards stand. */
export type LoggedEvent = WebhookEventSummary & { forwarding: EventForwarding };
