import crypto from "node:crypto";

import { expect, type APIRequestContext } from "@playwright/test";

import { ACME_TENANT, signedWebhookHeaders, tenantWebhookUrl } from "./emulator";

/**
 * An authenticator.expired event of the user, as the service sends it to Acme's receiver URL, signed; `data`
 * overrides its fields (an expiry of its own, a phone number).
 */
export async function deliverSignedExpiry(
  request: APIRequestContext,
  userId: string,
  data: Record<string, string> = {},
) {
  const body = JSON.stringify({
    version: 1,
    id: crypto.randomUUID(),
    source: "https://authsignal.com",
    time: new Date().toISOString(),
    tenantId: ACME_TENANT,
    type: "authenticator.expired",
    data: {
      userId,
      verificationMethod: "SMS",
      createdAt: "2026-01-10T09:00:00.000Z",
      expiresAt: new Date().toISOString(),
      userAuthenticatorId: `ua_${crypto.randomUUID()}`,
      ...data,
    },
  });
  const response = await request.post(await tenantWebhookUrl(), { headers: signedWebhookHeaders(body), data: body });
  expect(response.status()).toBe(200);
}
