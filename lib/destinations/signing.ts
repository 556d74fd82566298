import "server-only";

import { Webhook } from "standardwebhooks";

import { signatureHeader } from "@/lib/webhooks/webhooks";

import { EVENT_ID_HEADER, VERIFICATION_HEADER } from "./constants";
import type { Verification } from "./verdict";

/**
 * The headers of one forward: `service` (X-Signature-V2 over the stored body with a fresh `t`, one `v2=` per server
 * key) or `standard_webhooks` (`v1,<sig>`, and the previous secret's while it still signs). Both carry the event id
 * in `webhook-id` and the console's verdict in `webhook-verification` (docs/forwarding.md, "Destinations").
 */
export type Signer =
  { mode: "service"; serverKeys: readonly string[] } | { mode: "standard_webhooks"; secrets: readonly string[] };

export function forwardHeaders(
  signer: Signer,
  eventId: string,
  body: string,
  verification: Verification,
  now = new Date(),
): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    [EVENT_ID_HEADER]: eventId,
    [VERIFICATION_HEADER]: verification,
  };
  if (signer.mode === "service") {
    headers["x-signature-v2"] = signatureHeader(body, Math.floor(now.getTime() / 1000), signer.serverKeys);
    return headers;
  }
  headers["webhook-timestamp"] = String(Math.floor(now.getTime() / 1000));
  headers["webhook-signature"] = signer.secrets.map((secret) => new Webhook(secret).sign(eventId, now, body)).join(" ");
  return headers;
}
