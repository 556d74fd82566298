/**
 * The refusal reasons in words, client-safe: apart from ./constants so that only the pages that show
 * rejections (the Rejections tab, the overview's health cards) carry these texts.
 */
import { REJECTION_REASON_VALUES } from "./types";

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
