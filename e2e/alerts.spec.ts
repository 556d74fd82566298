import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

import { expect, test, type Page } from "@playwright/test";
import { Webhook } from "standardwebhooks";

import {
  addRefusingConnection,
  deleteConnection,
  postForgedDeliveries,
  type RefusingConnection,
} from "./support/alert-connection";
import { signIn } from "./support/auth";
import { expectNoSeriousA11yViolations, showColorScheme, sidewaysOverflow } from "./support/axe";
import { e2eUsers } from "./support/env";

/**
 * Alerts end to end: wrongly signed deliveries open a "Signatures refused" alert that the banner, the navigation,
 * the overview and the Alerts page show; admins act on it, support reads. It is on this spec's own connection
 * (to Globex's tenant, deleted at the end), so no other spec sees a banner or other counts.
 */

const name = `Alerts e2e ${crypto.randomBytes(3).toString("hex")}`;
const FORGED = 6;
let connection: RefusingConnection | undefined;
let connectionId = "";

test.describe.configure({ mode: "serial" });

const alertCard = (page: Page) => page.getByTestId("alert").filter({ hasText: name });
const banner = (page: Page) => page.getByTestId("alert-banner");
const stateOf = (page: Page) => alertCard(page).getByTestId("alert-state");
const alertsPage = () => `/alerts?connectionId=${connectionId}`;

/**
 * The Alerts page of this spec's connection, reloaded until the evaluator has opened its alert (and, with
 * `showing`, until its card reads that: an evaluation between two of beforeAll's deliveries opens the
 * alert with the refusals so far, and the next one counts them all).
 */
async function openAlertsPage(page: Page, showing = name) {
  await expect(async () => {
    await page.goto(alertsPage());
    await expect(alertCard(page)).toContainText(showing, { timeout: 2_000 });
  }).toPass({ timeout: 30_000, intervals: [1_000, 2_000] });
}

test.beforeAll(async ({ browser, request }) => {
  connection = await addRefusingConnection(browser, name);
  connectionId = connection.id;
  await postForgedDeliveries(request, connection, FORGED);
});

test.afterAll(async ({ browser }) => {
  if (connection) await deleteConnection(browser, connection);
});

test("refused signatures open an alert: the banner, the navigation, the overview and the Alerts page show it", async ({
  page,
}) => {
  await signIn(page, e2eUsers.admin);
  await openAlertsPage(page, `${FORGED} deliveries refused for a bad signature in 15 min (threshold 5)`);
  const card = alertCard(page);
  await expect(card.getByRole("heading", { name: `Signatures refused on ${name}` })).toBeVisible();
  await expect(stateOf(page)).toHaveText("Open");
  await expect(card.getByRole("link", { name: "View events" })).toHaveAttribute(
    "href",
    new RegExp(`^/webhooks\\?.*tab=rejections.*connectionId=${connectionId}`),
  );
  await expect(card.getByRole("link", { name: "Enter the new server key" })).toHaveAttribute(
    "href",
    `/connections/${connectionId}#serverKey`,
  );
  await expect(page.getByTestId("alerts-last-evaluated")).toContainText("Last evaluated");

  // The banner, on every page of the console, leads to the open alerts.
  await page.goto("/users");
  await expect(banner(page)).toContainText(`Signatures refused on ${name}`);
  await expect(banner(page).getByRole("link", { name: "See the alerts" })).toHaveAttribute(
    "href",
    "/alerts?state=open",
  );
  await expect(
    page.getByRole("navigation", { name: "Main", exact: true }).getByRole("link", { name: /^Alerts \(\d+ open\)$/ }),
  ).toBeVisible();

  // The connection's health card names the condition and links to its open alerts.
  await page.goto("/");
  const health = page
    .locator(`[data-testid="connection-health-card"][data-connection="${name}"]`)
    .getByTestId("health-open-alerts");
  await expect(health).toContainText("Signatures refused");
  await expect(health.getByRole("link", { name: "1 open alert" })).toHaveAttribute(
    "href",
    `/alerts?connectionId=${connectionId}&state=open`,
  );

  // A hand-edited link names what it left out and applies the rest.
  await page.goto(`/alerts?connectionId=${connectionId}&state=closed&colour=red`);
  await expect(page.getByText("State: must be one of all, open, resolved.")).toBeVisible();
  await expect(page.getByText("colour: not a filter of the alerts")).toBeVisible();
  await expect(alertCard(page)).toBeVisible();
});

test("the Alerts page, the banner and the overview read well in both themes, at 1280×800 and on a phone", async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  await signIn(page, e2eUsers.admin);
  await openAlertsPage(page);
  await expectNoSeriousA11yViolations(page, "/alerts with an open alert", ["light", "dark"]);
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    for (const scheme of ["light", "dark"] as const) {
      const shot = async (what: string, path: string) => {
        await page.goto(path);
        await showColorScheme(page, scheme);
        await expect(page.locator("[aria-busy=true]")).toHaveCount(0, { timeout: 15_000 });
        await expect(banner(page)).toBeVisible();
        expect(await sidewaysOverflow(page, { tables: false }), `${what} at ${viewport.width} px`).toEqual([]);
        await page.screenshot({
          path: testInfo.outputPath(`${what}-${viewport.width}-${scheme}.png`),
          fullPage: what === "alerts",
        });
      };
      await shot("alerts", alertsPage());
      await shot("banner", "/users");
      await shot("overview", "/");
    }
  }
});

test("support sees the alert, its threshold values and no button", async ({ page }) => {
  await signIn(page, e2eUsers.support);
  await openAlertsPage(page);
  const card = alertCard(page);
  await expect(card.getByText("Ask an administrator to enter the new server key.")).toBeVisible();
  await expect(
    page.getByRole("main").getByRole("button", { name: /Acknowledge|Mute|Unmute|Save thresholds/ }),
  ).toHaveCount(0);
  await expect(card.getByRole("link", { name: "Enter the new server key" })).toHaveCount(0);
  const thresholds = page.getByRole("region", { name: `Thresholds of ${name}` });
  await expect(thresholds).toContainText("5 refusals in 15 min (default)");
  await expect(thresholds.getByRole("textbox")).toHaveCount(0);
  await expect(banner(page)).toContainText(`Signatures refused on ${name}`);
});

test("the banner follows a mute made in another tab as soon as the user moves to another page", async ({
  page,
  browser,
}) => {
  await signIn(page, e2eUsers.support, "/users");
  await expect(banner(page)).toContainText(`Signatures refused on ${name}`);
  const nav = page.getByRole("navigation", { name: "Main", exact: true });

  // Another admin mutes the alert; this tab moves on by its navigation (the layout does not render again).
  const other = await (await browser.newContext()).newPage();
  await signIn(other, e2eUsers.admin);
  await openAlertsPage(other);
  await alertCard(other).getByLabel("Mute for").selectOption({ label: "1 h" });
  await alertCard(other).getByRole("button", { name: "Mute", exact: true }).click();
  await expect(stateOf(other)).toHaveText(/^Muted/);
  await nav.getByRole("link", { name: "Data points" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Data points" })).toBeVisible();
  await expect(banner(page).filter({ hasText: name })).toHaveCount(0);

  await alertCard(other).getByRole("button", { name: "Unmute" }).click();
  await expect(stateOf(other)).not.toHaveText(/^Muted/);
  await other.context().close();
  await nav.getByRole("link", { name: "Webhooks" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
  await expect(banner(page)).toContainText(`Signatures refused on ${name}`);
});

test("an admin acknowledges, mutes and unmutes the alert", async ({ page }) => {
  await signIn(page, e2eUsers.admin);
  await openAlertsPage(page);
  const card = alertCard(page);
  await card.getByRole("button", { name: "Acknowledge" }).click();
  await expect(stateOf(page)).toHaveText("Acknowledged");
  await expect(card).toContainText(`${e2eUsers.admin.name}, `);
  await expect(card.getByRole("button", { name: "Acknowledge" })).toHaveCount(0);

  // Muted: no banner for it until the mute ends or is lifted.
  await card.getByLabel("Mute for").selectOption({ label: "4 h" });
  await card.getByRole("button", { name: "Mute", exact: true }).click();
  await expect(stateOf(page)).toHaveText(/^Muted, ends\s+in 4 h$/);
  await expect(banner(page).filter({ hasText: name })).toHaveCount(0);
  await page.reload();
  await expect(banner(page).filter({ hasText: name })).toHaveCount(0);

  // Unmuted, it stays acknowledged: someone is on it, so the banner leaves it out.
  await alertCard(page).getByRole("button", { name: "Unmute" }).click();
  await expect(stateOf(page)).toHaveText("Acknowledged");
  await page.reload();
  await expect(stateOf(page)).toHaveText("Acknowledged");
  await expect(banner(page).filter({ hasText: name })).toHaveCount(0);
});

test("a threshold out of range is named on its field and saves nothing; a valid one saves", async ({ page }) => {
  await signIn(page, e2eUsers.admin, alertsPage());
  const form = page.getByRole("form", { name: `Thresholds of ${name}` });
  const badSignatures = form.getByLabel("Bad signatures");
  await expect(badSignatures).toHaveAttribute("placeholder", "5 (default)");
  await badSignatures.fill("0");
  await form.getByRole("button", { name: "Save thresholds" }).click();
  await expect(
    form.getByText("Bad signatures: a whole number from 1 to 10000, or empty for the default"),
  ).toBeVisible();
  await expect(badSignatures).toHaveAttribute("aria-invalid", "true");
  await page.reload();
  await expect(page.getByRole("form", { name: `Thresholds of ${name}` }).getByLabel("Bad signatures")).toHaveValue("");

  await page
    .getByRole("form", { name: `Thresholds of ${name}` })
    .getByLabel("Bad signatures")
    .fill("3");
  await page
    .getByRole("form", { name: `Thresholds of ${name}` })
    .getByRole("button", { name: "Save thresholds" })
    .click();
  await expect(page.getByText(`Saved the thresholds of ${name}`)).toBeVisible();
  await page.reload();
  await expect(page.getByRole("form", { name: `Thresholds of ${name}` }).getByLabel("Bad signatures")).toHaveValue("3");
});

test("an admin adds a notice target (its secret shown once), sends it a signed test and removes it; support sees none", async ({
  page,
  browser,
}) => {
  // The target: a handler on 127.0.0.1 (the e2e console allows it over http) that keeps what it receives.
  const received: Array<{ body: string; headers: Record<string, string> }> = [];
  const handler = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        body: Buffer.concat(chunks).toString("utf8"),
        headers: request.headers as Record<string, string>,
      });
      response.end("ok");
    });
  });
  await new Promise<void>((resolve) => handler.listen(0, "127.0.0.1", resolve));
  const target = `E2E chat ${crypto.randomBytes(3).toString("hex")}`;
  try {
    await signIn(page, e2eUsers.admin, "/alerts");
    const section = page.getByRole("region", { name: "Notice targets" });
    const add = async (targetName: string, url: string) => {
      await section.getByRole("button", { name: "Add a notice target" }).click();
      const form = page.getByRole("form", { name: "Add a notice target" });
      await form.getByLabel("Name").fill(targetName);
      await form.getByLabel("URL").fill(url);
      await form.getByRole("button", { name: "Add target" }).click();
    };
    // A refused address: named under the field in a destination's words, nothing saved.
    await add("Internal", "https://127.0.0.2:9/hook");
    await expect(page.getByText("The address 127.0.0.2 is not allowed (loopback).")).toBeVisible();
    await page.getByRole("button", { name: "Cancel" }).click();

    await add(target, `http://127.0.0.1:${(handler.address() as AddressInfo).port}/alerts`);
    const secret = page.getByTestId("notice-target-secret");
    await expect(secret).toHaveText(/^whsec_[A-Za-z0-9+/=]{32}$/);
    const shown = (await secret.textContent())!;
    await page.getByRole("button", { name: "Done" }).click();
    const row = page.getByTestId(`notice-target-${target}`);
    await expect(row).toContainText("Added here");
    await page.reload();
    expect(await page.content()).not.toContain(shown);

    await row.getByRole("button", { name: "Send a test" }).click();
    await expect(page.getByText(`${target} answered 200.`)).toBeVisible();
    const posted = received.find((r) => r.body.includes('"alert.test"'))!;
    expect(new Webhook(shown).verify(posted.body, posted.headers)).toMatchObject({
      type: "alert.test",
      data: { target: { name: target } },
    });

    const support = await (await browser.newContext()).newPage();
    await signIn(support, e2eUsers.support, "/alerts");
    await expect(support.getByRole("heading", { name: "Alerts", level: 1 })).toBeVisible();
    await expect(support.getByRole("region", { name: "Notice targets" })).toHaveCount(0);
    await expect(support.getByText(target)).toHaveCount(0);
    await support.context().close();
  } finally {
    const row = page.getByTestId(`notice-target-${target}`);
    if ((await row.count()) > 0) {
      await row.getByRole("button", { name: "Remove" }).click();
      const dialog = page.getByRole("dialog", { name: `Remove ${target}` });
      await dialog.getByLabel(`Type ${target} to confirm`).fill(target);
      await dialog.getByRole("button", { name: "Remove target" }).click();
      await expect(row).toHaveCount(0);
    }
    await new Promise<void>((resolve) => handler.close(() => resolve()));
  }
});
