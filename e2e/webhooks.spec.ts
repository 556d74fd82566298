import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./support/auth";
import { e2eEnv, e2eUsers } from "./support/env";

/** The demo seed's Acme tenant (us), which e2e/support/seed.ts points at the console's receiver. */
const ACME = "3f6c2a1e-8b4d-4c7a-9e21-5d0f7a9b1c01";
const control = (path: string) => `${e2eEnv.emulatorUrl}/_emulator/${path}`;

async function emulator<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(control(path), {
    method,
    headers: body === undefined ? undefined : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function acmeWebhookUrl(): Promise<string> {
  const state = await emulator<{ tenants: Array<{ id: string; webhookUrl: string | null }> }>("GET", "state");
  const url = state.tenants.find((t) => t.id === ACME)?.webhookUrl;
  if (!url) throw new Error("The e2e seed did not point Acme's webhook at the console.");
  return url;
}

/** Adds an authenticator that expires in one second of virtual time, then moves the clock past it. */
async function expireAuthenticator(userId: string, extra: Record<string, string> = {}) {
  await emulator("POST", `tenants/${ACME}/users/${userId}/authenticators`, {
    userAuthenticatorId: `ua_${userId}`,
    verificationMethod: "PUSH",
    deviceName: "E2E Phone",
    devicePlatform: "IOS",
    lifetimeSeconds: 1,
    ...extra,
  });
  // Answers once the sweep ran and the due delivery was attempted.
  await emulator("POST", "clock/advance", { seconds: 5 });
}

const uniqueUser = (label: string) => `usr_e2e_${label}_${crypto.randomBytes(4).toString("hex")}`;
const rowFor = (page: Page, userId: string) => page.getByTestId("webhook-event-row").filter({ hasText: userId });

test.describe("webhook log", () => {
  test("an expiry in the emulator appears while following live; detail, filter, shared link", async ({ page, browser }) => {
    await signIn(page, e2eUsers.admin);
    await page.goto("/webhooks");
    await expect(page.getByRole("heading", { name: "Webhooks" })).toBeVisible();
    // Visible only: while React reveals the streamed page, its copy of the heading sits hidden beside loading.tsx's.
    await expect(page.getByText(/kept for\s+\d+ days/).filter({ visible: true })).toBeVisible();
    await page.getByLabel(/Follow live/).check();

    const userId = uniqueUser("live");
    await expireAuthenticator(userId);
    // No reload: the followed view polls and announces the new row politely.
    await expect(rowFor(page, userId)).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId("live-announcement")).toHaveText(/new webhook event/);
    await expect(rowFor(page, userId).getByTestId("delivery-count")).toHaveText("1");
    await expect(rowFor(page, userId)).toContainText("verified (key 1)");

    const detailsButton = rowFor(page, userId).getByRole("button", { name: /Details/ });
    await detailsButton.click();
    const detail = page.getByRole("region", { name: "Event details" });
    await expect(detail).toContainText(`ua_${userId}`);
    await expect(detail.getByTestId("raw-body")).toContainText(`"userId": "${userId}"`);
    await expect(detail).toContainText("authenticator.expired");
    // The panel takes focus and lands in the URL (shareable); Escape closes it and focus goes back.
    await expect(detail.getByRole("heading", { name: "Event details" })).toBeFocused();
    await expect(page).toHaveURL(/[?&]event=\d+/);
    const detailUrl = page.url();
    await page.keyboard.press("Escape");
    await expect(detail).toHaveCount(0);
    await expect(detailsButton).toBeFocused();
    await expect(page).not.toHaveURL(/event=/);

    await page.getByLabel("User id", { exact: true }).fill(userId);
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(new RegExp(`userId=${userId}`));
    await expect(page.getByTestId("webhook-event-row")).toHaveCount(1);
    const rows = await page.getByTestId("webhook-event-row").allInnerTexts();

    const shared = await browser.newContext();
    const second = await shared.newPage();
    await signIn(second, e2eUsers.admin);
    await second.goto(page.url());
    await expect(second.getByTestId("webhook-event-row")).toHaveCount(1);
    // The server renders times in UTC and the browser swaps in local time once hydrated: poll until it has.
    await expect.poll(() => second.getByTestId("webhook-event-row").allInnerTexts()).toEqual(rows);
    await second.goto(detailUrl);
    await expect(second.getByRole("region", { name: "Event details" })).toContainText(`ua_${userId}`);
    await shared.close();
  });

  test("a delivery whose answer is lost is retried by the emulator and counted twice", async ({ page }) => {
    // A relay in front of the console stores the first attempt (forwards it) but answers the emulator 502,
    // as when the console's answer is lost on the way back. The emulator then redelivers 30 s later (virtual).
    const consoleUrl = new URL(await acmeWebhookUrl());
    const userId = uniqueUser("retry");
    // Other Acme events (the demo seed's expiries) pass through untouched; only ours is counted and failed once.
    let attempts = 0;
    const relay = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const forwarded = await fetch(new URL(req.url ?? "/", consoleUrl), {
        method: "POST",
        headers: { "content-type": req.headers["content-type"] ?? "", "x-signature-v2": String(req.headers["x-signature-v2"] ?? "") },
        body: Buffer.concat(chunks),
      });
      const ours = Buffer.concat(chunks).toString("utf8").includes(`"userId":"${userId}"`);
      if (ours) attempts += 1;
      res.writeHead(ours && attempts === 1 ? 502 : forwarded.status).end();
    });
    await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
    const relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}${consoleUrl.pathname}`;
    await emulator("PUT", `tenants/${ACME}/webhook`, { url: relayUrl });
    try {
      await expireAuthenticator(userId);
      expect(attempts).toBe(1);
      await emulator("POST", "clock/advance", { seconds: 31 });
      expect(attempts).toBe(2);

      await signIn(page, e2eUsers.admin);
      await page.goto(`/webhooks?userId=${userId}`);
      await expect(page.getByTestId("webhook-event-row")).toHaveCount(1);
      await expect(page.getByTestId("delivery-count")).toHaveText("2");
      await page.getByRole("button", { name: /Details/ }).click();
      await expect(page.getByTestId("detail-delivery-count")).toHaveText("2");
    } finally {
      await emulator("PUT", `tenants/${ACME}/webhook`, { url: consoleUrl.toString() });
      relay.close();
    }
  });

  test("support users see email and phone masked in the page and the API", async ({ page }) => {
    const userId = uniqueUser("pii");
    await expireAuthenticator(userId, { verificationMethod: "EMAIL_OTP", email: "jordan.private@example.com" });
    await signIn(page, e2eUsers.support);
    await page.goto(`/webhooks?userId=${userId}`);
    await expect(page.getByTestId("webhook-event-row")).toHaveCount(1);
    await page.getByRole("button", { name: /Details/ }).click();
    const detail = page.getByRole("region", { name: "Event details" });
    await expect(detail).toContainText("j•••@example.com");
    await expect(detail.getByTestId("raw-body")).toContainText("j•••@example.com");
    await expect(page.locator("body")).not.toContainText("jordan.private@example.com");

    const api = await page.request.get(`/api/webhook-events?userId=${userId}`);
    expect(api.status()).toBe(200);
    const text = await api.text();
    expect(text).toContain("j•••@example.com");
    expect(text).not.toContain("jordan.private");
    const csv = await (await page.request.get(`/api/webhook-events/export?format=csv&userId=${userId}`)).text();
    expect(csv).toContain("j•••@example.com");
    expect(csv).not.toContain("jordan.private");
  });

  test("a post with a bad signature is refused and listed in the Rejections tab", async ({ page, request }) => {
    const eventId = crypto.randomUUID();
    const body = JSON.stringify({ version: 1, id: eventId, source: "https://evil.example", time: new Date().toISOString(), tenantId: ACME, type: "authenticator.expired", data: {} });
    const response = await request.post(await acmeWebhookUrl(), {
      headers: { "content-type": "application/json", "x-signature-v2": `t=${Math.floor(Date.now() / 1000)},v2=Zm9yZ2Vk` },
      data: body,
    });
    expect(response.status()).toBe(401);
    expect(await response.json()).toMatchObject({ error: "unauthorized" });

    await signIn(page, e2eUsers.support);
    await page.goto("/webhooks");
    await page.getByRole("link", { name: "Rejections" }).click();
    const row = page.getByTestId("webhook-rejection-row").filter({ hasText: eventId });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("bad_signature");
    await expect(row).toContainText("401");
    await expect(row).toContainText("Acme");
  });

  test("every answer of a webhook URL is JSON: a trailing slash is served, a bad path 404, another method 405", async ({ request }) => {
    const url = await acmeWebhookUrl();
    const expectJsonError = async (response: Awaited<ReturnType<typeof request.fetch>>, status: number, error: string) => {
      expect(response.status()).toBe(status);
      expect(response.headers()["content-type"]).toContain("application/json");
      expect(await response.json()).toEqual({ error, errorDescription: expect.any(String) });
    };
    const unsigned = { headers: { "content-type": "application/json" }, data: "{}", maxRedirects: 0 };
    // The service follows no redirect: the URL with a slash reaches the receiver (which wants a signature here).
    await expectJsonError(await request.post(`${url}/`, unsigned), 401, "unauthorized");
    await expectJsonError(await request.post(new URL("/api/webhooks/%E0%A4%A", url).toString(), unsigned), 404, "not_found");
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

  test("the log follows the shell's connection; All connections says whose each event is", async ({ page }) => {
    const userId = uniqueUser("conn");
    await expireAuthenticator(userId);
    await signIn(page, e2eUsers.admin);
    await page.goto("/webhooks?type=all");
    await expect(rowFor(page, userId)).toHaveCount(1);
    const filters = page.getByRole("search", { name: "Filter webhook events" });
    await expect(filters.getByLabel("Connection")).toHaveValue(/^[0-9a-f-]{36}$/);
    await expect(page.getByRole("columnheader", { name: "Connection" })).toHaveCount(0);

    await page.locator("#connection-switcher").selectOption({ label: "Globex (EU)" });
    await expect(filters.getByLabel("Connection")).toHaveValue(/^[0-9a-f-]{36}$/);
    await expect(filters.getByLabel("Connection").locator("option:checked")).toHaveText("Globex");
    await expect(rowFor(page, userId)).toHaveCount(0);

    await filters.getByLabel("Connection").selectOption({ label: "All connections" });
    await filters.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/connectionId=all/);
    await expect(rowFor(page, userId)).toContainText("Acme");
    await expect(page.getByRole("columnheader", { name: "Connection" })).toHaveCount(1);
  });

  test("a bad filter in a link is left out and named; the API answers 400", async ({ page }) => {
    await signIn(page, e2eUsers.support);
    await page.goto("/webhooks?receivedFrom=yesterday&verificationMethod=push");
    await expect(page.getByText("One filter in the link was left out")).toBeVisible();
    await expect(page.getByText("Received from: must be an ISO 8601 time.")).toBeVisible();
    // The valid filter still applies (upper-cased, as the spec's values are) and the form stays.
    const form = page.getByRole("search", { name: "Filter webhook events" });
    await expect(form.getByLabel("Method")).toHaveValue("PUSH");
    // The time ranges fold away while none is set, and open on demand.
    await expect(form.getByLabel("Received from")).toBeHidden();
    await form.getByText("More filters").click();
    await expect(form.getByLabel("Received from")).toBeVisible();
    await page.goto("/webhooks?expiresFrom=2025-01-01T00:00:00.000Z");
    await expect(form.getByLabel("Expired from")).toBeVisible();
    const api = await page.request.get("/api/webhook-events?limit=5000");
    expect(api.status()).toBe(400);
    expect(await api.json()).toMatchObject({ error: "invalid_request" });
  });
});
