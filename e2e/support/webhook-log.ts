import crypto from "node:crypto";

import { expect, type APIRequestContext, type Page } from "@playwright/test";

import { ACME_TENANT, tenantWebhookUrl } from "./emulator";

/** The webhook log's helpers, shared by e2e/webhook-*.spec.ts. */

/** A user id of this run, so a test finds its own events among every other spec's. */
export const uniqueUser = (label: string) => `usr_e2e_${label}_${crypto.randomBytes(4).toString("hex")}`;

/** The rows of the event log that name this user. */
export const rowFor = (page: Page, userId: string) => page.getByTestId("webhook-event-row").filter({ hasText: userId });

/** Posts an event with a forged signature to Acme's receiver URL, which refuses it (401): a Rejections row. */
export async function postForgedEvent(request: APIRequestContext) {
  const eventId = crypto.randomUUID();
  const body = JSON.stringify({
    version: 1,
    id: eventId,
    source: "https://evil.example",
    time: new Date().toISOString(),
    tenantId: ACME_TENANT,
    type: "authenticator.expired",
    data: {},
  });
  const response = await request.post(await tenantWebhookUrl(), {
    headers: { "content-type": "application/json", "x-signature-v2": `t=${Math.floor(Date.now() / 1000)},v2=Zm9yZ2Vk` },
    data: body,
  });
  expect(response.status()).toBe(401);
  return { eventId, response };
}
