/** A new authenticator.expired delivery as the service sends it, for the HTTP parts that post webhooks. */
import crypto from "node:crypto";

import { TENANT_ID } from "@/lib/testing/webhooks";
import { signatureHeader } from "@/lib/webhooks/signature";

/** A console connection's webhook URL token and the server key that signs its deliveries. */
export type Sender = { token: string; key: string };

/**
 * A new event (a fresh id, sent now, expired a minute ago), signed now with the sender's key: the path,
 * headers and body of its POST. Signing is one HMAC-SHA256 over a ~450-byte body, microseconds.
 */
export function signedExpiredEvent(
  sender: Sender,
  data: { userId: string; deviceName: string; devicePlatform: string },
) {
  const id = crypto.randomUUID();
  const now = new Date();
  const body = JSON.stringify({
    version: 1,
    id,
    source: "https://authsignal.com",
    time: now.toISOString(),
    tenantId: TENANT_ID,
    type: "authenticator.expired",
    data: {
      userId: data.userId,
      verificationMethod: "PUSH",
      createdAt: "2025-01-10T09:00:00.000Z",
      expiresAt: new Date(now.getTime() - 60_000).toISOString(),
      userAuthenticatorId: `ua_${id}`,
      deviceName: data.deviceName,
      devicePlatform: data.devicePlatform,
    },
  });
  return {
    path: `/api/webhooks/${sender.token}`,
    headers: {
      "content-type": "application/json",
      "x-signature-v2": signatureHeader(body, Math.floor(now.getTime() / 1000), [sender.key]),
    },
    body,
  };
}
