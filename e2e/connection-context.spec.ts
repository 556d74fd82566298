import { expect, test, type Page } from "@playwright/test";

import { signIn } from "./support/auth";
import { expireAuthenticator } from "./support/emulator";
import { e2eUsers } from "./support/env";
import { rowFor, uniqueUser } from "./support/webhook-log";

/**
 * One connection context: the header's switcher scopes every page, offering "All connections" where a page can
 * show all (the log, audit, alerts); a link that names a connection shows it in the header too.
 */
const switcher = (page: Page) => page.locator("#connection-switcher");
const shown = (page: Page) => switcher(page).locator("option:checked");

async function choose(page: Page, label: string) {
  await switcher(page).selectOption({ label });
  await expect(shown(page)).toHaveText(label);
  await expect(switcher(page)).toBeEnabled();
}

test("the header's switcher drives the log, audit and alerts; All connections only where a page can show all", async ({
  page,
}) => {
  // The log's own following is e2e/webhook-log.spec.ts's; here, that the choice carries to the other pages.
  await signIn(page, e2eUsers.admin, "/webhooks");
  // The log has no connection select of its own any more.
  await expect(page.getByRole("search", { name: "Filter webhook events" }).getByLabel("Connection")).toHaveCount(0);
  await choose(page, "All connections");

  // The other pages that can show all follow the same choice.
  await page.goto("/audit");
  await expect(shown(page)).toHaveText("All connections");
  const records = page.getByRole("table", { name: "Audit records, newest first" }).locator("tbody tr");
  await expect(records.filter({ hasText: "connection.created" }).filter({ hasText: "Globex" })).toHaveCount(1);
  await expect(records.filter({ hasText: "connection.created" }).filter({ hasText: "Acme" })).toHaveCount(1);
  await choose(page, "Globex (EU)");
  await expect(records.filter({ hasText: "connection.created" }).filter({ hasText: "Acme" })).toHaveCount(0);
  await expect(records.filter({ hasText: "connection.created" }).filter({ hasText: "Globex" })).toHaveCount(1);

  await page.goto("/alerts");
  await expect(shown(page)).toHaveText("Globex (EU)");
  await expect(page.getByRole("heading", { name: "Thresholds of Globex" })).toBeVisible();
  await choose(page, "All connections");
  await expect(page.getByRole("heading", { name: "Thresholds", exact: true })).toBeVisible();

  // A page of one connection shows the connection chosen before All, and offers no All.
  await page.goto("/users");
  await expect(shown(page)).toHaveText("Globex (EU)");
  await expect(switcher(page).locator("option", { hasText: "All connections" })).toHaveCount(0);
});

test("a link that names a connection shows it in the header; choosing in the header then replaces it", async ({
  page,
}) => {
  const userId = uniqueUser("linked");
  await expireAuthenticator(userId);
  await signIn(page, e2eUsers.admin, "/webhooks");
  await choose(page, "Globex (EU)");
  const acme = (await switcher(page).locator("option", { hasText: "Acme" }).getAttribute("value"))!;

  // An alert's or an overview card's link into the log names Acme: the header says Acme, not Globex.
  await page.goto(`/webhooks?type=all&connectionId=${acme}`);
  await expect(shown(page)).toHaveText(/^Acme/);
  await expect(rowFor(page, userId)).toHaveCount(1);
  // Filtering keeps the link's connection.
  const bar = page.getByRole("search", { name: "Filter webhook events" });
  await bar.getByLabel("User id", { exact: true }).fill(userId);
  await bar.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`connectionId=${acme}`));
  await expect(shown(page)).toHaveText(/^Acme/);

  await page.goto(`/alerts?connectionId=${acme}`);
  await expect(shown(page)).toHaveText(/^Acme/);
  await page.goto(`/audit?connectionId=${acme}`);
  await expect(shown(page)).toHaveText(/^Acme/);

  // The header's choice replaces the link's connection: the page follows it.
  await page.goto(`/webhooks?type=all&connectionId=${acme}`);
  await choose(page, "Globex (EU)");
  await expect(page).not.toHaveURL(/connectionId=/);
  await expect(rowFor(page, userId)).toHaveCount(0);
});
