import { expect, test } from "@playwright/test";

import { signIn } from "./support/auth";
import { sidewaysOverflow } from "./support/axe";
import { e2eUsers } from "./support/env";

test("the audit log lists changes and filters by action, connection and actor in the URL", async ({ page }) => {
  await signIn(page, e2eUsers.admin, "/audit");
  const rows = page.getByRole("table", { name: "Audit records, newest first" }).locator("tbody tr");
  await expect(rows.filter({ hasText: "connection.created" }).filter({ hasText: "Globex" })).toHaveCount(1);

  await page.getByLabel("Action").selectOption("connection.created");
  await page.getByLabel("Connection", { exact: true }).last().selectOption({ label: "Globex" });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/action=connection\.created/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Globex");
  await expect(rows.first()).toContainText("seed");

  await page.goto("/audit?actor=nobody-at-all");
  await expect(page.getByText("No audit records match")).toBeVisible();
});

test("support cannot open the audit log", async ({ page }) => {
  await signIn(page, e2eUsers.support);
  expect((await page.goto("/audit"))?.status()).toBe(403);
});

test("the audit table fits 1280×800 with no sideways scroll, and the page a phone", async ({ page }) => {
  await signIn(page, e2eUsers.admin);
  // A long target and a request id in the log, the columns most likely to widen the table.
  await page.goto(`/users?userId=${"usr_a_rather_long_user_identifier_"}${Date.now()}&lookup=1`);
  await expect(page.locator("[aria-busy=true]")).toHaveCount(0, { timeout: 15_000 });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/audit");
  await expect(page.getByRole("table", { name: "Audit records, newest first" })).toBeVisible();
  expect(await sidewaysOverflow(page, { tables: true })).toEqual([]);
  // Narrower windows show each record as a card: still nothing scrolls sideways.
  await page.setViewportSize({ width: 1024, height: 768 });
  await expect(page.getByRole("list", { name: "Audit records, newest first" })).toBeVisible();
  expect(await sidewaysOverflow(page, { tables: true })).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  // A phone shows each record as a card, the request id in full.
  const cards = page.getByRole("list", { name: "Audit records, newest first" }).getByRole("listitem");
  await expect(cards.first()).toContainText("user_authenticators.viewed");
  expect(await sidewaysOverflow(page, { tables: true })).toEqual([]);
});
