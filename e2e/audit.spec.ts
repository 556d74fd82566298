import { expect, test } from "@playwright/test";

import { signIn } from "./support/auth";
import { expectNoSeriousA11yViolations, sidewaysOverflow } from "./support/axe";
import { addDestination, removeDestination } from "./support/destinations";
import { e2eUsers } from "./support/env";

test("the audit log lists changes and filters by action and actor in the URL, by the header's connection", async ({
  page,
}) => {
  await signIn(page, e2eUsers.admin, "/audit");
  const rows = page.getByRole("table", { name: "Audit records, newest first" }).locator("tbody tr");
  // Scoped by the header's connection (Acme, the first by name).
  await expect(rows.filter({ hasText: "connection.created" }).filter({ hasText: "Acme" })).toHaveCount(1);

  await page.locator("#connection-switcher").selectOption({ label: "Globex (EU)" });
  await expect(rows.filter({ hasText: "connection.created" }).filter({ hasText: "Acme" })).toHaveCount(0);
  await page.getByLabel("Action").selectOption("connection.created");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/action=connection\.created/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Globex");
  await expect(rows.first()).toContainText("seed");

  await page.goto("/audit?actor=nobody-at-all");
  await expect(page.getByText("No audit records match")).toBeVisible();
});

test("the action filter offers what every page audits, grouped: a removed destination is found by it", async ({
  page,
}) => {
  const name = `Audited ${Date.now()}`;
  await signIn(page, e2eUsers.admin, "/destinations");
  await addDestination(page, name, "http://127.0.0.1:9/audited");
  await removeDestination(page, name);

  await page.goto("/audit");
  const action = page.getByLabel("Action");
  for (const [group, value] of [
    ["Destinations", "destination.removed"],
    ["Alerts", "alert.acknowledged"],
    ["End users", "end_user.erased"],
  ]) {
    await expect(action.locator(`optgroup[label="${group}"] > option[value="${value}"]`)).toHaveCount(1);
  }
  await action.selectOption("destination.removed");
  await page.getByRole("button", { name: "Filter" }).click();
  const rows = page.getByRole("table", { name: "Audit records, newest first" }).locator("tbody tr");
  await expect(rows.filter({ hasText: name })).toHaveCount(1);
  await expect(rows.filter({ hasNotText: "destination.removed" })).toHaveCount(0);
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

test("a request id in the audit table shows its start, the whole id on hover, and copies the whole", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, e2eUsers.admin, "/audit");
  const row = page.getByRole("table", { name: "Audit records, newest first" }).locator("tbody tr").first();
  const shown = row.getByTestId("request-id");
  const whole = (await shown.getAttribute("title")) ?? "";
  expect(whole).toMatch(/^[0-9a-f-]{36}$/);
  await expect(shown).toHaveText(`${whole.slice(0, 8)}…`);
  await expectNoSeriousA11yViolations(page, "audit", ["light", "dark"]);
  await row.getByRole("button", { name: `Copy request id ${whole}` }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(whole);
});

test("at 1280 an actor's email and an action wrap only at their @ and dots, never inside a word", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, e2eUsers.admin, "/audit");
  const table = page.getByRole("table", { name: "Audit records, newest first" });
  await expect(table).toBeVisible();
  // Each part between break points (an email's @, an action's dots) lies on one line: a part the browser broke
  // has boxes on two lines (a break just before or after it leaves an empty box there, not counted).
  const brokenMidWord = await table.locator("tbody tr").evaluateAll((rows) =>
    rows.flatMap((row) =>
      [1, 2].flatMap((column) => {
        const cell = row.children[column] as HTMLElement;
        return [...cell.querySelectorAll("span")]
          .filter((part) => {
            const lines = [...part.getClientRects()].filter((box) => box.width > 1).map((box) => Math.round(box.top));
            return new Set(lines).size > 1;
          })
          .map((part) => `${cell.textContent}: ${part.textContent}`);
      }),
    ),
  );
  expect(brokenMidWord).toEqual([]);
});
