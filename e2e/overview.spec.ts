import crypto from "node:crypto";

import { expect, test, type Page } from "@playwright/test";

import { signIn } from "./support/auth";
import { sidewaysOverflow } from "./support/axe";
import { ACME_TENANT, expireAuthenticator, tenantWebhookUrl } from "./support/emulator";
import { e2eUsers } from "./support/env";

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
    await expect(acme.getByText("Needs attention")).toBeVisible();
    const warning = acme.getByTestId("health-warning-bad-signature");
    await expect(warning).toContainText("the server key was probably rotated at the service");
    const connectionPage = await acme.getByRole("heading").getByRole("link").getAttribute("href");
    expect(connectionPage).toMatch(/^\/connections\/[0-9a-f-]{36}$/);
    await expect(warning.getByRole("link", { name: "Paste the new server key" })).toHaveAttribute(
      "href",
      `${connectionPage}#serverKey`,
    );
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

    // The connection's own page shows its health as a section of its own; the warning leads to the server key field.
    await page.goto(connectionPage!);
    const health = page.getByTestId("connection-health-card");
    await expect(health.getByRole("heading", { level: 2, name: "Webhook health" })).toBeVisible();
    await expect(health.getByText("Needs attention")).toBeVisible();
    await expect(health.getByText("Last event")).toBeVisible();
    await health
      .getByTestId("health-warning-bad-signature")
      .getByRole("link", { name: "Paste the new server key" })
      .click();
    await expect(page.getByLabel("Server API secret key (optional)", { exact: true })).toBeInViewport();
  });

  test("support sees the same health without admin-only fields or links", async ({ page }) => {
    await signIn(page, e2eUsers.support, "/");
    const acme = card(page, "Acme");
    await expect(acme).toBeVisible();
    await expect(acme.getByText("Needs attention")).toBeVisible();
    // No email OTP line (a service call on the admin's key), no key fingerprint, no connection page.
    await expect(acme.getByText("Email OTP")).toHaveCount(0);
    await expect(acme.getByText(/…\w{4}/)).toHaveCount(0);
    await expect(page.locator('main a[href^="/connections"]')).toHaveCount(0);
    const warning = acme.getByTestId("health-warning-bad-signature");
    await expect(warning).toContainText("Ask an administrator to paste the new server key");
    await warning.getByRole("link", { name: "See the refused deliveries" }).click();
    await expect(page).toHaveURL(
      /\/webhooks\?tab=rejections&connectionId=[0-9a-f-]{36}&reason=bad_signature&received=24h/,
    );
    await expect(page.getByTestId("webhook-rejection-row").first()).toContainText("Bad signature");
  });
});
