import crypto from "node:crypto";

import { expect, test, type Page } from "@playwright/test";

import { signIn } from "./support/auth";
import { sidewaysOverflow } from "./support/axe";
import { ACME_TENANT, expireAuthenticator, tenantWebhookUrl } from "./support/emulator";
import { e2eUsers } from "./support/env";
import { deliverSignedExpiry } from "./support/signed-expiry";

const card = (page: Page, name: string) =>
  page.locator(`[data-testid="connection-health-card"][data-connection="${name}"]`);

test.describe("overview", () => {
  const userId = `usr_e2e_overview_${crypto.randomBytes(4).toString("hex")}`;
  // The longest a row gets: an id far wider than its column, the longest method, and a platform.
  const longUserId = `usr_e2e_overview_with_an_id_much_longer_than_its_column_${crypto.randomBytes(4).toString("hex")}`;

  test.beforeAll(async ({ request }) => {
    // A real expiry through the emulator and the receiver, and a delivery with a forged signature.
    await expireAuthenticator(userId, { verificationMethod: "SMS" });
    await expireAuthenticator(longUserId, { verificationMethod: "EMAIL_MAGIC_LINK", devicePlatform: "ANDROID" });
    const body = JSON.stringify({
      version: 1,
      id: crypto.randomUUID(),
      source: "https://evil.example",
      time: new Date().toISOString(),
      tenantId: ACME_TENANT,
      type: "authenticator.expired",
      data: {},
    });
    const refused = await request.post(await tenantWebhookUrl(), {
      headers: {
        "content-type": "application/json",
        "x-signature-v2": `t=${Math.floor(Date.now() / 1000)},v2=Zm9yZ2Vk`,
      },
      data: body,
    });
    expect(refused.status()).toBe(401);
  });

  test("admins see each connection's health, the latest expiries and charts that open the log", async ({ page }) => {
    await signIn(page, e2eUsers.admin, "/");
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

    const acme = card(page, "Acme");
    await expect(acme).toBeVisible();
    await expect(card(page, "Globex")).toBeVisible();
    // One forged delivery is below the alert's threshold: a fact in neutral words, no call to act.
    await expect(acme.getByTestId("health-fact-bad_signature")).toContainText(/\d+ refused for a bad signature/);
    await expect(acme.getByText("Needs attention")).toHaveCount(0);
    const connectionPage = await acme.getByRole("heading").getByRole("link").getAttribute("href");
    expect(connectionPage).toMatch(/^\/connections\/[0-9a-f-]{36}$/);
    // The service call streams into its own line, whatever it answers.
    await expect(acme.getByTestId("email-otp-presence")).toHaveText(/configured|unknown/);
    await expect(acme.getByText(/^…\w{4}$/)).toBeVisible();

    // The expiry is listed with its user; its link opens the event's detail drawer in the log.
    await expect(page.getByTestId("expired-today").getByRole("link", { name: userId })).toHaveAttribute(
      "href",
      /^\/webhooks\?connectionId=all&event=\d+$/,
    );
    // Whatever the rows hold, the table fits its card at 1280×800: a long id is cut short, its title whole.
    await expect(page.getByTestId("expired-today").getByTitle(longUserId)).toBeVisible();
    expect(await sidewaysOverflow(page, { tables: true })).toEqual([]);

    // The hourly chart draws (client-side) and its table links each count to the log, filtered to it.
    const perHour = page.getByTestId("expired-per-hour");
    await expect(perHour.locator(".recharts-bar-rectangle").first()).toBeVisible();
    await perHour.getByText("Show as table").click();
    await perHour
      .getByRole("link", { name: /^\d+ SMS, / })
      .first()
      .click();
    await expect(page).toHaveURL(
      /\/webhooks\?connectionId=all&receivedFrom=[^&]+&receivedTo=[^&]+&verificationMethod=SMS/,
    );
    await expect(page.getByTestId("webhook-event-row").filter({ hasText: userId })).toBeVisible();

    // A bar of the delay histogram opens the log at that delay.
    await page.goBack();
    const delay = page.getByTestId("delivery-delay");
    await expect(delay.getByText("later than that")).toBeVisible();
    await delay.locator(".recharts-bar-rectangle path").first().click();
    await expect(page).toHaveURL(/\/webhooks\?connectionId=all&received=7d&delay=[\w-]+/);

    // The connection's own page shows its health as a section of its own, by the same rule.
    await page.goto(connectionPage!);
    const health = page.getByTestId("connection-health-card");
    await expect(health.getByRole("heading", { level: 2, name: "Webhook health" })).toBeVisible();
    await expect(health.getByTestId("health-fact-bad_signature")).toBeVisible();
    await expect(health.getByText("Needs attention")).toHaveCount(0);
    await expect(health.getByText("Last event")).toBeVisible();
  });

  test("support sees the same health without admin-only fields or links", async ({ page }) => {
    await signIn(page, e2eUsers.support, "/");
    const acme = card(page, "Acme");
    await expect(acme).toBeVisible();
    await expect(acme.getByText("Needs attention")).toHaveCount(0);
    // No email OTP line (a service call on the admin's key), no key fingerprint, no connection page.
    await expect(acme.getByText("Email OTP")).toHaveCount(0);
    await expect(acme.getByText(/…\w{4}/)).toHaveCount(0);
    await expect(page.locator('main a[href^="/connections"]')).toHaveCount(0);
    await acme.getByTestId("health-fact-bad_signature").getByRole("link").click();
    await expect(page).toHaveURL(
      /\/webhooks\?tab=rejections&connectionId=[0-9a-f-]{36}&reason=bad_signature&received=24h/,
    );
    await expect(page.getByTestId("webhook-rejection-row").first()).toContainText("Bad signature");
  });

  test("the latest expiries are listed newest expiry first, as cards on a phone", async ({ page, request }) => {
    // Received in this order, expiring in the other: the one received last expired first. An hour ahead, so that
    // no other expiry (the emulator's clock runs ahead of the wall clock) comes between them.
    const tag = crypto.randomBytes(4).toString("hex");
    const expiredLast = `usr_e2e_expired_last_${tag}`;
    const expiredFirst = `usr_e2e_expired_first_${tag}`;
    const inAnHour = Date.now() + 3_600_000;
    await deliverSignedExpiry(request, expiredLast, { expiresAt: new Date(inAnHour).toISOString() });
    await deliverSignedExpiry(request, expiredFirst, { expiresAt: new Date(inAnHour - 60_000).toISOString() });
    await signIn(page, e2eUsers.admin, "/");
    const expiries = page.getByTestId("expired-today");
    await expect(expiries.getByText("Newest expiry first.")).toBeVisible();
    const users = expiries.getByRole("table").getByRole("link");
    await expect(users.nth(0)).toHaveText(expiredLast);
    await expect(users.nth(1)).toHaveText(expiredFirst);

    // On a phone the rows are cards in the same order, and the page does not scroll sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(expiries.getByRole("table")).toBeHidden();
    const cards = expiries.getByRole("list", { name: /newest expiry first/ }).getByRole("link");
    await expect(cards.nth(0)).toHaveText(expiredLast);
    await expect(cards.nth(1)).toHaveText(expiredFirst);
    expect(await sidewaysOverflow(page, { tables: false })).toEqual([]);
  });
});
