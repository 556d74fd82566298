import { expect, test } from "@playwright/test";
import { signIn } from "./support/auth";
import { e2eUsers } from "./support/env";

test("the audit log lists changes and filters by action, connection and actor in the URL", async ({ page }) => {
  await signIn(page, e2eUsers.admin);
  await page.goto("/audit");
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
