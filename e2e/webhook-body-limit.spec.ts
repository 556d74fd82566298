import crypto from "node:crypto";

import { expect, test } from "@playwright/test";

import { ACME_TENANT, signedWebhookHeaders, tenantWebhookUrl } from "./support/emulator";

const MAX_WEBHOOK_BODY_BYTES = 256 * 1024; // lib/webhooks/receive.ts

/** A valid authenticator.expired event, padded to exactly `size` bytes with a field the receiver ignores. */
function paddedEvent(size: number): string {
  const now = new Date().toISOString();
  const data = {
    userId: `usr_e2e_size_${crypto.randomBytes(4).toString("hex")}`,
    verificationMethod: "PUSH",
    createdAt: now,
    expiresAt: now,
    userAuthenticatorId: "ua_e2e_size",
  };
  const event = JSON.stringify({
    version: 1,
    id: crypto.randomUUID(),
    source: "e2e",
    time: now,
    tenantId: ACME_TENANT,
    type: "authenticator.expired",
    data,
  });
  return `${event.slice(0, -1)},"pad":"${"x".repeat(size - event.length - 9)}"}`;
}

test("a delivery of exactly 256 KiB is stored, also through the proxy's body limit; one byte more is 413", async ({
  request,
}) => {
  const url = await tenantWebhookUrl();
  // The token's first letter %-escaped: the same URL to the receiver, but proxy.ts runs for it (its matcher),
  // so the body first passes Next's proxy buffer (next.config.js experimental.proxyClientMaxBodySize).
  const token = new URL(url).pathname.split("/").at(-1)!;
  const escaped = new URL(
    `/api/webhooks/%${token.charCodeAt(0).toString(16).toUpperCase()}${token.slice(1)}`,
    url,
  ).toString();
  for (const target of [url, escaped]) {
    const exact = paddedEvent(MAX_WEBHOOK_BODY_BYTES);
    expect(Buffer.byteLength(exact)).toBe(MAX_WEBHOOK_BODY_BYTES);
    expect((await request.post(target, { headers: signedWebhookHeaders(exact), data: exact })).status(), target).toBe(
      200,
    );
    const over = paddedEvent(MAX_WEBHOOK_BODY_BYTES + 1);
    const refused = await request.post(target, { headers: signedWebhookHeaders(over), data: over });
    expect([refused.status(), ((await refused.json()) as { error: string }).error], target).toEqual([
      413,
      "payload_too_large",
    ]);
  }
});
