import crypto from "node:crypto";

import { expect, test, type Page } from "@playwright/test";

import {
  addRefusingConnection,
  deleteConnection,
  postForgedDeliveries,
  type RefusingConnection,
} from "./support/alert-connection";
import { signIn } from "./support/auth";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { e2eUsers } from "./support/env";

/**
 * One health model: a connection's state on the overview and its page comes from its alerts alone. One refusal
 * below the threshold is a neutral fact; an open alert asks someone to act; an acknowledged one is counted apart.
 * On a connection of this spec's own, so other specs' refusals and alerts do not count.
 */

test.describe.configure({ mode: "serial" });

let connection: RefusingConnection;
const card = (page: Page) =>
  page.locator(`[data-testid="connection-health-card"][data-connection="${connection.name}"]`);
const nav = (page: Page) => page.getByRole("navigation", { name: "Main", exact: true });

/** The overview, reloaded until this connection's card shows `testId` (the evaluator runs every 2 s in e2e). */
async function overviewShowing(page: Page, testId: string) {
  await expect(async () => {
    await page.goto("/");
    await expect(card(page).getByTestId(testId)).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000, intervals: [1_000, 2_000] });
}

/** How many alerts the navigation's badge counts (0: no badge). */
async function badgeCount(page: Page): Promise<number> {
  const link = nav(page).getByRole("link", { name: /^Alerts/ });
  const name = (await link.textContent()) ?? "";
  return Number(/\((\d+) open\)/.exec(name)?.[1] ?? 0);
}

test.beforeAll(async ({ browser, request }) => {
  connection = await addRefusingConnection(browser, `Health e2e ${crypto.randomBytes(3).toString("hex")}`);
  await postForgedDeliveries(request, connection, 1);
});

test.afterAll(async ({ browser }) => {
  if (connection) await deleteConnection(browser, connection);
});

test("one refusal below the alert's threshold is a neutral fact on the overview, not Needs attention", async ({
  page,
}) => {
  await signIn(page, e2eUsers.admin, "/");
  const health = card(page);
  await expect(health.getByTestId("health-fact-bad_signature")).toContainText("1 refused for a bad signature");
  await expect(health.getByText("Needs attention")).toHaveCount(0);
  await expect(health.getByRole("link", { name: "Paste the new server key" })).toHaveCount(0);
  await expect(health.getByTestId("health-open-alerts")).toHaveCount(0);
});

test("one refusal below the threshold is a neutral fact on the connection's page too", async ({ page }) => {
  await signIn(page, e2eUsers.admin, `/connections/${connection.id}`);
  const health = page.getByTestId("connection-health-card");
  await expect(health.getByTestId("health-fact-bad_signature")).toContainText("1 refused for a bad signature");
  await expect(health.getByText("Needs attention")).toHaveCount(0);
});

test("an open alert makes the connection need attention, with what to do", async ({ page, request }) => {
  // Five more in 15 minutes: the threshold of "Signatures refused".
  await postForgedDeliveries(request, connection, 5);
  await signIn(page, e2eUsers.admin, "/");
  await overviewShowing(page, "health-open-alerts");
  const health = card(page);
  await expect(health.getByText("Needs attention")).toBeVisible();
  const alert = health.getByTestId("health-alert-bad_signatures");
  await expect(alert).toContainText("refused for a bad signature in 15 min (threshold 5)");
  await expect(alert.getByRole("link", { name: "Paste the new server key" })).toHaveAttribute(
    "href",
    `/connections/${connection.id}#serverKey`,
  );
  await expect(page.getByTestId("overview-attention")).toContainText(/need(s)? attention/);
  await expectNoSeriousA11yViolations(page, "/ with an open alert", ["light", "dark"]);
});

test("support sees the open alert and whom to ask, without a link to the key", async ({ page }) => {
  await signIn(page, e2eUsers.support, "/");
  const alert = card(page).getByTestId("health-alert-bad_signatures");
  await expect(alert).toContainText("Ask an administrator to paste the new server key.");
  await expect(alert.getByRole("link", { name: "Paste the new server key" })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, "/ with an open alert, as support", ["light", "dark"]);
});

test("an acknowledged alert leaves the badge and the banner, and shows as acknowledged", async ({ page }) => {
  await signIn(page, e2eUsers.admin, "/users");
  const banner = page.getByTestId("alert-banner");
  await expect(banner).toContainText(`Signatures refused on ${connection.name}`);
  const before = await badgeCount(page);
  expect(before).toBeGreaterThan(0);

  await page.goto(`/alerts?connectionId=${connection.id}`);
  const alertCard = page.getByTestId("alert").filter({ hasText: connection.name });
  await alertCard.getByRole("button", { name: "Acknowledge" }).click();
  await expect(alertCard.getByTestId("alert-state")).toHaveText("Acknowledged");

  await page.goto("/users");
  await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();
  await expect(nav(page).getByRole("link", { name: /^Alerts/ })).toHaveAccessibleName(
    before === 1 ? "Alerts" : `Alerts (${before - 1} open)`,
  );
  await expect(banner.filter({ hasText: connection.name })).toHaveCount(0);

  await overviewShowing(page, "health-acknowledged-alerts");
  const health = card(page);
  await expect(health.getByTestId("health-acknowledged-alerts")).toContainText("1 acknowledged alert");
  await expect(health.getByText("Acknowledged", { exact: true })).toBeVisible();
  await expect(health.getByText("Needs attention")).toHaveCount(0);
  await expect(health.getByTestId("health-open-alerts")).toHaveCount(0);
});
