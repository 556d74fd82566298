import type { SigningModeName } from "./constants";

/**
 * Whether an event may go to a destination: a signature "as the service" only for an event whose service signature
 * was checked; an `unsigned` one only to a Standard Webhooks destination that opted in (docs/forwarding.md, "Only
 * verified events are signed as the service"). Client-safe; verification.test.ts holds store.ts's SQL to it.
 */

/** The console's verdict on an event, as the `webhook-verification` header says it. */
export type Verification = "verified" | "unsigned";

/** From webhook_events.signature_status: verified_key1 or verified_key2, or unsigned (no signature checked). */
export const verificationOf = (signatureStatus: string): Verification =>
  signatureStatus === "unsigned" ? "unsigned" : "verified";

export function mayForward(signing: SigningModeName, includeUnverified: boolean, signatureStatus: string): boolean {
  return verificationOf(signatureStatus) === "verified" || (signing === "standard_webhooks" && includeUnverified);
}

const COULD_NOT_VERIFY =
  "the console could not verify this event's signature (it was stored while the connection held no server key, so anyone with the webhook URL could have posted it)";

/**
 * Why an event is not forwarded to a destination, in words (the drawer says "Not forwarded: " before
 * it, the send-time refusal and Resend use it too); null when it may be.
 */
export function whyNotForwarded(
  signing: SigningModeName,
  includeUnverified: boolean,
  signatureStatus: string,
): string | null {
  if (mayForward(signing, includeUnverified, signatureStatus)) return null;
  if (signing === "service")
    return `${COULD_NOT_VERIFY}, and this destination signs as the service: its signature would vouch for the event as the service's`;
  return `${COULD_NOT_VERIFY}, and this destination does not take unverified events`;
}

/** What an admin can do about it, for Resend's refusal. */
export const UNVERIFIED_REMEDY =
  "To send such events to a handler, add a Standard Webhooks destination with “Include events the console could not verify” ticked; its forwards carry webhook-verification: unsigned.";
