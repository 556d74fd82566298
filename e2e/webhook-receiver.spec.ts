import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

import { expect, test } from "@playwright/test";

import { signIn } from "./support/auth";
import {
  ACME_TENANT,
  emulatorJson,
  expireAuthenticator,
  signedWebhookHeaders,
  tenantWebhookUrl,
} from "./support/emulator";
import { e2eUsers } from "./support/env";
import { postForgedEvent, uniqueUser } from "./support/webhook-log";

/**
 * The console's webhook receiver, as the log shows what it did: a delivery whose answer is lost is retried
 * and counted twice, a bad or stale signature is refused and listed with its reason, and every answer of a
 * webhook URL is JSON.
 */
test.describe("webhook receiver", () => {
  test("a delivery whose answer is lost is retried by the emulator and counted twice", async ({ page }) => {
    // A relay in front of the console stores the first attempt (forwards it) but answers the emulator 502,
    // as when the console's answer is lost on the way back. The emulator then redelivers 30 s later (virtual).
    const consoleUrl = new URL(await tenantWebhookUrl());
    const userId = uniqueUser("retry");
    // Other Acme events (the demo seed's expiries) pass through untouched; only ours is counted and failed once.
    let attempts = 0;
    const relay = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const forwarded = await fetch(new URL(req.url ?? "/", consoleUrl), {
        method: "POST",
        headers: {
          "content-type": req.headers["content-type"] ?? "",
          "x-signature-v2": String(req.headers["x-signature-v2"] ?? ""),
        },
        body: Buffer.concat(chunks),
      });
      const ours = Buffer.concat(chunks).toString("utf8").includes(`"userId":"${userId}"`);
      if (ours) attempts += 1;
      res.writeHead(ours && attempts === 1 ? 502 : forwarded.status).end();
    });
    await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
    const relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}${consoleUrl.pathname}`;
    await emulatorJson("PUT", `tenants/${ACME_TENANT}/webhook`, { url: relayUrl });
    try {
      await expireAuthenticator(userId);
      expect(attempts).toBe(1);
      await emulatorJson("POST", "clock/advance", { seconds: 31 });
      expect(attempts).toBe(2);

      await signIn(page, e2eUsers.admin, `/webhooks?userId=${userId}`);
      await expect(page.getByTestId("webhook-event-row")).toHaveCount(1);
      await expect(page.getByTestId("delivery-count")).toContainText("×2");
      await page.getByTestId("webhook-event-row").getByRole("link").click();
      await expect(page.getByTestId("detail-delivery-count")).toHaveText("2");
    } finally {
      await emulatorJson("PUT", `tenants/${ACME_TENANT}/webhook`, { url: consoleUrl.toString() });
      relay.close();
    }
  });

  test("a post with a bad signature is refused and listed in the Rejections tab", async ({ page, request }) => {
    const { eventId, response } = await postForgedEvent(request);
    expect(await response.json()).toMatchObject({ error: "unauthorized" });

    await signIn(page, e2eUsers.support, "/webhooks");
    await page.getByRole("link", { name: "Rejections" }).click();
    const row = page.getByTestId("webhook-rejection-row").filter({ hasText: eventId });
    await expect(row).toHaveCount(1);
    // The reason in words in the row; its code in the drawer (and the export).
    await expect(row).toContainText("Bad signature");
    await expect(row).toContainText("401");
    await expect(row).toContainText("Acme");
    // The row opens the drawer: the reason in words, and the headers kept to explain it.
    await row.click();
    const drawer = page.getByRole("dialog", { name: "Rejection details" });
    await expect(drawer).toContainText("Bad signature (bad_signature)");
    await expect(drawer).toContainText("matched none of the connection's server keys");
    await expect(drawer).toContainText("x-signature-v2");
    await expect(drawer).toContainText("Zm9yZ2Vk");
    await expect(drawer).toContainText(eventId);
  });

  test("every answer of a webhook URL is JSON: a trailing slash is served, a bad path 404, another method 405", async ({
    request,
  }) => {
    const url = await tenantWebhookUrl();
    const expectJsonError = async (
      response: Awaited<ReturnType<typeof request.fetch>>,
      status: number,
      error: string,
    ) => {
      expect(response.status()).toBe(status);
      expect(response.headers()["content-type"]).toContain("application/json");
      expect(await response.json()).toEqual({ error, errorDescription: expect.any(String) });
    };
    const unsigned = { headers: { "content-type": "application/json" }, data: "{}", maxRedirects: 0 };
    // The service follows no redirect: the URL with a slash reaches the receiver (which wants a signature here).
    await expectJsonError(await request.post(`${url}/`, unsigned), 401, "unauthorized");
    await expectJsonError(
      await request.post(new URL("/api/webhooks/%E0%A4%A", url).toString(), unsigned),
      404,
      "not_found",
    );
    await expectJsonError(await request.post(`${url}/extra`, unsigned), 404, "not_found");
    await expectJsonError(await request.post(new URL("/api/webhooks", url).toString(), unsigned), 404, "not_found");
    for (const method of ["GET", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
      const response = await request.fetch(url, { method, maxRedirects: 0 });
      await expectJsonError(response, 405, "method_not_allowed");
      expect(response.headers()["allow"]).toBe("POST");
    }
    const head = await request.fetch(url, { method: "HEAD", maxRedirects: 0 });
    expect([head.status(), head.headers()["allow"]]).toEqual([405, "POST"]);
    // Pages keep the usual redirect to the address without the slash.
    const page = await request.get("/webhooks/", { maxRedirects: 0 });
    expect([page.status(), new URL(page.headers()["location"]!, url).pathname]).toEqual([308, "/webhooks"]);
  });

  test("a signature 600 s in the past is said to be in the past", async ({ page, request }) => {
    const eventId = crypto.randomUUID();
    const body = JSON.stringify({
      version: 1,
      id: eventId,
      source: "e2e",
      time: new Date().toISOString(),
      tenantId: ACME_TENANT,
      type: "authenticator.expired",
      data: {},
    });
    const response = await request.post(await tenantWebhookUrl(), {
      headers: signedWebhookHeaders(body, Math.floor(Date.now() / 1000) - 600),
      data: body,
    });
    expect(response.status()).toBe(401);

    await signIn(page, e2eUsers.support, "/webhooks?tab=rejections&reason=stale_timestamp");
    const row = page.getByTestId("webhook-rejection-row").filter({ hasText: eventId });
    await expect(row).toContainText(/signature timestamp is 60\d s in the past/);
    await row.getByRole("link").click();
    await expect(page.getByRole("dialog", { name: "Rejection details" })).toContainText("Stale timestamp");
  });
});
