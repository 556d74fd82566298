import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./support/auth";
import { ACME_TENANT, emulatorJson, expireAuthenticator, signedWebhookHeaders, tenantWebhookUrl } from "./support/emulator";
import { e2eUsers } from "./support/env";

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
    // One delivery shows no count (only a retried event gets its "×N").
    await expect(rowFor(page, userId).getByTestId("delivery-count")).toHaveCount(0);
    await expect(rowFor(page, userId)).toContainText("verified (key 1)");

    const rowLink = rowFor(page, userId).getByRole("link");
    await rowLink.click();
    const detail = page.getByRole("dialog", { name: "Event details" });
    await expect(detail).toContainText(`ua_${userId}`);
    await expect(detail.getByTestId("raw-body")).toContainText(`"userId": "${userId}"`);
    await expect(detail).toContainText("authenticator.expired");
    await expect(detail.getByRole("link", { name: "Look up this user" })).toHaveAttribute("href", `/users?userId=${userId}&lookup=1`);
    // The drawer takes focus and lands in the URL (shareable); Escape closes it and focus goes back.
    await expect(detail.getByRole("heading", { name: "Event details" })).toBeFocused();
    await expect(page).toHaveURL(/[?&]event=\d+/);
    const detailUrl = page.url();
    await page.keyboard.press("Escape");
    await expect(detail).toHaveCount(0);
    await expect(rowLink).toBeFocused();
    await expect(page).not.toHaveURL(/event=/);

    const filters = page.getByRole("search", { name: "Filter webhook events" });
    await filters.getByLabel("User id", { exact: true }).fill(userId);
    await filters.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(new RegExp(`userId=${userId}`));
    await expect(page.getByTestId("webhook-event-row")).toHaveCount(1);
    const rows = await page.getByTestId("webhook-event-row").allInnerTexts();

    const shared = await browser.newContext();
    const second = await shared.newPage();
    await signIn(second, e2eUsers.admin);
    await second.goto(page.url());
    await expect(second.getByTestId("webhook-event-row")).toHaveCount(1);
    // The same row; its relative time may have moved on by a tick since the first page rendered it.
    const withoutTime = (texts: string[]) => texts.map((t) => t.replace(/just now|\d+ (min|h|d) ago/, "<time>"));
    expect(withoutTime(await second.getByTestId("webhook-event-row").allInnerTexts())).toEqual(withoutTime(rows));
    await second.goto(detailUrl);
    await expect(second.getByRole("dialog", { name: "Event details" })).toContainText(`ua_${userId}`);
    await shared.close();
  });

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
        headers: { "content-type": req.headers["content-type"] ?? "", "x-signature-v2": String(req.headers["x-signature-v2"] ?? "") },
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

      await signIn(page, e2eUsers.admin);
      await page.goto(`/webhooks?userId=${userId}`);
      await expect(page.getByTestId("webhook-event-row")).toHaveCount(1);
      await expect(page.getByTestId("delivery-count")).toContainText("×2");
      await page.getByTestId("webhook-event-row").getByRole("link").click();
      await expect(page.getByTestId("detail-delivery-count")).toHaveText("2");
    } finally {
      await emulatorJson("PUT", `tenants/${ACME_TENANT}/webhook`, { url: consoleUrl.toString() });
      relay.close();
    }
  });

  test("support users see email and phone masked in the page and the API", async ({ page }) => {
    const userId = uniqueUser("pii");
    await expireAuthenticator(userId, { verificationMethod: "EMAIL_OTP", email: "jordan.private@example.com" });
    await signIn(page, e2eUsers.support);
    await page.goto(`/webhooks?userId=${userId}`);
    await expect(page.getByTestId("webhook-event-row")).toHaveCount(1);
    await page.getByTestId("webhook-event-row").click();
    const detail = page.getByRole("dialog", { name: "Event details" });
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
    const body = JSON.stringify({ version: 1, id: eventId, source: "https://evil.example", time: new Date().toISOString(), tenantId: ACME_TENANT, type: "authenticator.expired", data: {} });
    const response = await request.post(await tenantWebhookUrl(), {
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

  test("every answer of a webhook URL is JSON: a trailing slash is served, a bad path 404, another method 405", async ({ request }) => {
    const url = await tenantWebhookUrl();
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

    // A select applies as soon as it changes.
    await filters.getByLabel("Connection").selectOption({ label: "All connections" });
    await expect(page).toHaveURL(/connectionId=all/);
    await expect(rowFor(page, userId)).toContainText("Acme");
    await expect(page.getByRole("columnheader", { name: "Connection" })).toHaveCount(1);
  });

  test("a bad filter in a link is left out and named; the API answers 400", async ({ page }) => {
    await signIn(page, e2eUsers.support);
    await page.goto("/webhooks?receivedFrom=yesterday&verificationMethod=push");
    await expect(page.getByText("One filter in the link was left out")).toBeVisible();
    await expect(page.getByText("Received from: must be an ISO 8601 time, e.g. 2026-01-31T12:00:00Z.")).toBeVisible();
    // The valid filter still applies (upper-cased, as the spec's values are) and the form stays.
    const form = page.getByRole("search", { name: "Filter webhook events" });
    await expect(form.getByLabel("Method")).toHaveValue("PUSH");
    // The custom range shows only once Custom… is chosen, and says its zone.
    await expect(form.getByLabel("From (UTC)", { exact: true })).toBeHidden();
    await form.getByLabel("Received").selectOption({ label: "Custom…" });
    await expect(form.getByLabel("From (UTC)", { exact: true })).toBeVisible();
    await expect(page).not.toHaveURL(/received=/);
    // The expiry range folds under More, open while one of its filters is set.
    await expect(form.getByLabel("Expired from (UTC)")).toBeHidden();
    await page.goto("/webhooks?expiresFrom=2025-01-01T00:00:00.000Z");
    // The UTC wall time of the link (the browser drops zero seconds).
    await expect(form.getByLabel("Expired from (UTC)")).toHaveValue("2025-01-01T00:00");
    const api = await page.request.get("/api/webhook-events?limit=5000");
    expect(api.status()).toBe(400);
    expect(await api.json()).toMatchObject({ error: "invalid_request" });
  });

  test("rows open the drawer by click and by Enter; j/k and the buttons move; Escape gives focus back to the row", async ({ page }) => {
    const prefix = uniqueUser("nav");
    for (const n of [1, 2, 3]) await expireAuthenticator(`${prefix}_${n}`);
    await signIn(page, e2eUsers.admin);
    await page.goto(`/webhooks?userId=${prefix}&userIdMatch=prefix`);
    const rows = page.getByTestId("webhook-event-row");
    await expect(rows).toHaveCount(3);
    const drawer = page.getByRole("dialog", { name: "Event details" });
    const shows = (n: number) => expect(drawer.getByTestId("raw-body")).toContainText(`"userId": "${prefix}_${n}"`);
    const older = drawer.getByRole("button", { name: "Next (older)" });
    const newer = drawer.getByRole("button", { name: "Previous (newer)" });

    // A click anywhere on the row, here on its time, opens it.
    await rowFor(page, `${prefix}_2`).locator("time").click();
    await shows(2);
    await page.keyboard.press("j");
    await shows(1);
    await expect(older).toBeDisabled();
    await page.keyboard.press("k");
    await shows(2);
    await page.keyboard.press("k");
    await shows(3);
    await expect(newer).toBeDisabled();
    await older.click();
    await shows(2);
    await expect(rowFor(page, `${prefix}_2`).getByRole("link")).toHaveAttribute("aria-current", "true");
    await page.keyboard.press("Escape");
    await expect(drawer).toHaveCount(0);
    // Focus goes back to the row shown last, not the one clicked first.
    await expect(rowFor(page, `${prefix}_2`).getByRole("link")).toBeFocused();

    // By keyboard: Tab reaches the next row's link, Enter opens it.
    await page.keyboard.press("Tab");
    await expect(rowFor(page, `${prefix}_1`).getByRole("link")).toBeFocused();
    await page.keyboard.press("Enter");
    await shows(1);
    await expect(page).toHaveURL(/[?&]event=\d+/);
    await drawer.getByRole("button", { name: "Close" }).click();
    await expect(rowFor(page, `${prefix}_1`).getByRole("link")).toBeFocused();
  });

  test("an event the link names but the log does not have says so, and the list stays", async ({ page }) => {
    await expireAuthenticator(uniqueUser("nf"));
    await signIn(page, e2eUsers.support);
    for (const event of ["garbage", "999999999"]) {
      await page.goto(`/webhooks?type=all&event=${event}`);
      const drawer = page.getByRole("dialog", { name: "Event details" });
      await expect(drawer.getByText("Event not found")).toBeVisible();
      await expect(page.getByTestId("webhook-event-row").first()).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(drawer).toHaveCount(0);
      await expect(page).not.toHaveURL(/event=/);
    }
  });

  test("the filter bar: selects apply at once, time presets stay relative in the link", async ({ page }) => {
    await signIn(page, e2eUsers.support);
    await page.goto("/webhooks");
    const bar = page.getByRole("search", { name: "Filter webhook events" });
    await bar.getByLabel("Method").selectOption("PUSH");
    await expect(page).toHaveURL(/verificationMethod=PUSH/);
    await expect(bar.getByLabel("Platform").locator("option")).toContainText(["All platforms", "IOS", "ANDROID"]);
    await bar.getByLabel("Received").selectOption({ label: "Last hour" });
    await expect(page).toHaveURL(/received=1h/);
    await expect(page).toHaveURL(/verificationMethod=PUSH/);
    await expect(bar.getByLabel("Received")).toHaveValue("1h");
  });

  test("link parameters that are no filter are named, and a bad page size is said in words", async ({ page }) => {
    await signIn(page, e2eUsers.support);
    await page.goto("/webhooks?method=PUSH&userId=usr_nobody");
    await expect(page.getByText("method: not a filter of this log; did you mean Method (verificationMethod=PUSH)?")).toBeVisible();
    await expect(page.getByRole("search", { name: "Filter webhook events" }).getByLabel("User id", { exact: true })).toHaveValue("usr_nobody");
    await page.goto("/webhooks?limit=abc");
    await expect(page.getByText("Rows per page: must be a whole number from 1 to 200.")).toBeVisible();
    await expect(page.getByText(/NaN/)).toHaveCount(0);

    for (const [url, named] of [
      ["/api/webhook-events?method=PUSH", "method"],
      ["/api/webhook-events?limit=abc", "Rows per page (limit)"],
      ["/api/webhook-events/export?format=csv&platform=IOS", "platform"],
      ["/api/webhook-rejections?reason=nope", "Reason (reason)"],
      ["/api/webhook-rejections?format=csv&colour=red", "colour"],
    ] as const) {
      const response = await page.request.get(url);
      expect(response.status(), url).toBe(400);
      const body = (await response.json()) as { error: string; errorDescription: string };
      expect(body.error).toBe("invalid_request");
      expect(body.errorDescription).toContain(named);
    }
    for (const url of ["/api/webhook-events?received=1h&limit=5&verificationMethod=PUSH", "/api/webhook-events/export?format=ndjson&received=24h", "/api/webhook-rejections?received=7d&limit=3"]) {
      expect((await page.request.get(url)).status(), url).toBe(200);
    }
  });

  test("a signature 600 s in the past is said to be in the past", async ({ page, request }) => {
    const eventId = crypto.randomUUID();
    const body = JSON.stringify({ version: 1, id: eventId, source: "e2e", time: new Date().toISOString(), tenantId: ACME_TENANT, type: "authenticator.expired", data: {} });
    const response = await request.post(await tenantWebhookUrl(), { headers: signedWebhookHeaders(body, Math.floor(Date.now() / 1000) - 600), data: body });
    expect(response.status()).toBe(401);

    await signIn(page, e2eUsers.support);
    await page.goto("/webhooks?tab=rejections&reason=stale_timestamp");
    const row = page.getByTestId("webhook-rejection-row").filter({ hasText: eventId });
    await expect(row).toContainText(/signature timestamp is 60\d s in the past/);
    await row.getByRole("link").click();
    await expect(page.getByRole("dialog", { name: "Rejection details" })).toContainText("Stale timestamp");
  });

  test("times read the same before and after hydration", async ({ page }) => {
    await expireAuthenticator(uniqueUser("hydrate"));
    await signIn(page, e2eUsers.admin);
    const response = await page.goto("/webhooks?type=all");
    const html = await response!.text();
    const served = [...html.matchAll(/<time[^>]*dateTime="([^"]+)"[^>]*>([^<]*)<\/time>/gi)].map((m) => [m[1]!, m[2]!] as const);
    expect(served.length).toBeGreaterThan(0);
    // Hydrated once a row opens its drawer (a client handler); then the same <time>s read the same text.
    await page.getByTestId("webhook-event-row").first().getByRole("link").click();
    await expect(page.getByRole("dialog", { name: "Event details" })).toBeVisible();
    const hydrated = await page.locator("[data-testid=webhook-event-row] time").evaluateAll((els) => els.map((e) => [e.getAttribute("datetime"), e.textContent]));
    expect(hydrated.length).toBeGreaterThan(0);
    const servedByInstant = new Map(served);
    for (const [instant, text] of hydrated) expect(text, instant!).toBe(servedByInstant.get(instant!));
    expect(hydrated[0]![1]).toMatch(/just now|ago|^\d{4}-/);
  });

  test("at 1280×800 neither log scrolls sideways; on a phone the open drawer does not widen the page", async ({ page }) => {
    await expireAuthenticator(uniqueUser("layout_with_a_rather_long_user_identifier_0123456789"), { deviceName: "A device with a very long marketing name indeed" });
    await signIn(page, e2eUsers.admin);
    await page.setViewportSize({ width: 1280, height: 800 });
    const noSidewaysScroll = async (testId: string) => {
      const box = page.getByRole("region", { name: /newest first/ });
      await expect(page.getByTestId(testId).first()).toBeVisible();
      const [table, doc] = await Promise.all([
        box.evaluate((el) => [el.scrollWidth, el.clientWidth]),
        page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]),
      ]);
      expect(table[0]).toBeLessThanOrEqual(table[1]!);
      expect(doc[0]).toBeLessThanOrEqual(doc[1]!);
    };
    await page.goto("/webhooks?type=all&connectionId=all");
    await noSidewaysScroll("webhook-event-row");
    await page.goto("/webhooks?tab=rejections");
    await noSidewaysScroll("webhook-rejection-row");

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/webhooks?type=all&connectionId=all");
    await page.getByTestId("webhook-event-row").first().click();
    await expect(page.getByRole("dialog", { name: "Event details" }).getByTestId("raw-body")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.keyboard.press("Escape");
    await page.goto("/webhooks?tab=rejections");
    await page.getByTestId("webhook-rejection-row").first().click();
    await expect(page.getByRole("dialog", { name: "Rejection details" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  test("axe finds no WCAG A/AA violation in either log, its selected row or its drawer", async ({ page }) => {
    await expireAuthenticator(uniqueUser("axe"));
    await signIn(page, e2eUsers.support);
    const expectNoViolations = async (label: string) => {
      const results = await new AxeBuilder({ page }).include("main").withTags(["wcag2a", "wcag2aa"]).analyze();
      expect(results.violations.map((v) => `${label}: ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    };
    await page.goto("/webhooks?type=all&connectionId=all");
    await expect(page.getByTestId("webhook-event-row").first()).toBeVisible();
    await expectNoViolations("events");
    await page.getByTestId("webhook-event-row").first().click();
    await expect(page.getByRole("dialog", { name: "Event details" }).getByTestId("raw-body")).toBeVisible();
    await expectNoViolations("event drawer");
    await page.goto("/webhooks?tab=rejections");
    await expect(page.getByTestId("webhook-rejection-row").first()).toBeVisible();
    await expectNoViolations("rejections");
    await page.getByTestId("webhook-rejection-row").first().click();
    await expectNoViolations("rejection drawer");
  });
});
