import { expect, test, type Locator, type Page } from "@playwright/test";

import type { TenantApp } from "@/tooling/tenant-app";

import { signIn } from "./support/auth";
import { expectNoSeriousA11yViolations, sidewaysOverflow } from "./support/axe";
import { addDestination, removeDestination, startAcmeTenantApp } from "./support/destinations";
import { e2eUsers } from "./support/env";

/**
 * The console's frame around what a page shows: the connection page's tabs and the fit of their cards, toasts
 * clear of the header's controls, and a refusal (403) inside the sidebar and header.
 */

const wide = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };

async function openAcme(page: Page, query = "") {
  await page.goto("/connections");
  const href = await page
    .getByRole("link", { name: "Acme", exact: true })
    .filter({ visible: true })
    .first()
    .getAttribute("href");
  await page.goto(`${href}${query}`);
  await expect(page.getByRole("heading", { level: 1, name: "Acme" })).toBeVisible();
  await expect(page.locator("[aria-busy=true]")).toHaveCount(0, { timeout: 15_000 });
  return href!;
}

/** How far each visible card of the shown tab reaches below its own last child, in px. */
function emptySpaceBelowContent(panel: Locator) {
  return panel.locator("section").evaluateAll((cards) =>
    cards
      .filter((card) => card.getClientRects().length > 0)
      .map((card) => {
        // The lowest of what the card shows (a closed dialog inside it has no box).
        const shown = [...card.querySelectorAll("*")].filter((el) => el.getClientRects().length > 0);
        const last = Math.max(...shown.map((el) => el.getBoundingClientRect().bottom));
        return Math.round(card.getBoundingClientRect().bottom - last);
      }),
  );
}

test.describe("the connection page", () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize(wide);
    await signIn(page, e2eUsers.admin);
  });

  test("at 1280 px no card of any tab is taller than its content", async ({ page }) => {
    await openAcme(page);
    for (const tab of ["Settings", "Webhooks", "Destinations"]) {
      await page.getByRole("tab", { name: tab }).click();
      const panel = page.getByRole("tabpanel", { name: tab });
      await expect(panel).toBeVisible();
      const gaps = await emptySpaceBelowContent(panel);
      expect(gaps.length, `${tab}: its cards`).toBeGreaterThan(0);
      // A card's own padding (20 px) and a little more, never a stretched card.
      for (const gap of gaps) expect(gap, `${tab}: space below a card's content`).toBeLessThanOrEqual(32);
      expect(await sidewaysOverflow(page, { tables: false })).toEqual([]);
    }
  });

  test("the tabs follow the keyboard and the link keeps the chosen one across a reload", async ({ page }) => {
    const href = await openAcme(page);
    const settings = page.getByRole("tab", { name: "Settings" });
    await expect(settings).toHaveAttribute("aria-selected", "true");
    await settings.focus();
    await page.keyboard.press("ArrowRight");
    const webhooks = page.getByRole("tab", { name: "Webhooks" });
    await expect(webhooks).toBeFocused();
    await expect(webhooks).toHaveAttribute("aria-selected", "true");
    await expect(page.getByTestId("webhook-url")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${href}\\?tab=webhooks$`));
    await page.keyboard.press("End");
    await expect(page.getByRole("tab", { name: "Destinations" })).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await expect(settings).toBeFocused();
    await page.keyboard.press("ArrowLeft");
    await expect(page).toHaveURL(/\?tab=destinations$/);
    // Tab leaves the tab list for the shown panel.
    await page.keyboard.press("Tab");
    await expect(page.getByRole("tabpanel", { name: "Destinations" })).toBeFocused();

    await page.reload();
    await expect(page.getByRole("tab", { name: "Destinations" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel", { name: "Destinations" })).toBeVisible();
    await expect(page.getByTestId("webhook-url")).toBeHidden();
    await expectNoSeriousA11yViolations(page, "connection page, Destinations tab", ["light", "dark"]);
  });

  test("a link to a field or section of another tab opens that tab", async ({ page }) => {
    const href = await openAcme(page, "?tab=webhooks");
    await page.goto(`${href}#serverKey`);
    await expect(page.getByRole("tab", { name: "Settings" })).toHaveAttribute("aria-selected", "true");
    await expect(page.locator("#serverKey")).toBeVisible();
    await page.goto(`${href}#destinations-heading`);
    await expect(page.getByRole("tab", { name: "Destinations" })).toHaveAttribute("aria-selected", "true");
    await expect(page.locator("#destinations-heading")).toBeInViewport();
  });

  test.describe("with a destination", () => {
    let tenantApp: TenantApp;
    test.beforeAll(async () => {
      tenantApp = await startAcmeTenantApp();
    });
    test.afterAll(() => tenantApp.close());

    test("at 1280 px each of a destination's values fits on one line", async ({ page }) => {
      await page.goto("/destinations");
      await addDestination(page, "Frame check", `${tenantApp.url}/tenants/acme`);
      await expect(page.getByTestId("destination-Frame check")).toBeVisible();
      await openAcme(page, "?tab=destinations");
      const card = page.getByTestId("destination-Frame check");
      await expect(card).toContainText("Never (signs as the service)");
      const wrapped = await card.locator("dd").evaluateAll((values) =>
        values
          .filter((dd) => {
            const lineHeight = parseFloat(getComputedStyle(dd).lineHeight) || 20;
            return dd.getBoundingClientRect().height > lineHeight * 1.5;
          })
          .map((dd) => dd.textContent),
      );
      expect(wrapped).toEqual([]);
      await page.goto("/destinations");
      await removeDestination(page, "Frame check");
    });
  });
});

/** The header's controls a toast must leave uncovered. */
async function headerControls(page: Page) {
  const header = page.locator("header").first();
  const boxes = [];
  for (const control of [
    header.getByRole("button", { name: "Sign out" }),
    header.getByRole("button", { name: "Menu" }),
    header.getByTestId("current-user"),
    header.getByRole("group", { name: "Theme" }),
    header.getByLabel("Connection", { exact: true }),
  ]) {
    if (await control.isVisible()) boxes.push((await control.boundingBox())!);
  }
  return boxes;
}

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

for (const viewport of [wide, phone]) {
  test(`at ${viewport.width} px a toast sits at the bottom and covers none of the header's controls`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await signIn(page, e2eUsers.admin);
    await openAcme(page);
    await page.getByRole("button", { name: "Save changes" }).click();
    const toast = page.locator("[data-sonner-toast]").filter({ hasText: /^Saved Acme/ });
    await expect(toast).toBeVisible();
    const box = (await toast.boundingBox())!;
    const controls = await headerControls(page);
    expect(controls.length).toBeGreaterThan(0);
    for (const control of controls) expect(overlaps(box, control), "a toast over a header control").toBe(false);
    expect(box.y, "in the lower half of the window").toBeGreaterThan(viewport.height / 2);
    expect(box.x + box.width, "inside the window").toBeLessThanOrEqual(viewport.width);
  });
}

test.describe("a refused page", () => {
  for (const viewport of [wide, phone]) {
    test(`at ${viewport.width} px support opening an admin-only page gets 403 inside the console's frame`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await signIn(page, e2eUsers.support);
      const response = await page.goto("/audit");
      expect(response?.status()).toBe(403);
      await expect(page.getByRole("heading", { name: "You do not have access to this page" })).toBeVisible();
      await expect(page).toHaveURL(/\/audit$/);
      // The header and the navigation stay.
      await expect(page.locator("header").getByRole("button", { name: "Sign out" })).toBeVisible();
      const nav = page.getByRole("navigation", { name: viewport === wide ? "Main" : "Main (compact)", exact: true });
      await expect(nav).toBeVisible();
      // What support may do instead: its own pages, and none of admin's.
      const pages = page.getByRole("navigation", { name: "Pages you can open" });
      await expect(pages.getByRole("link", { name: "Webhooks" })).toBeVisible();
      await expect(pages.getByRole("link", { name: "Audit" })).toHaveCount(0);
      expect(await sidewaysOverflow(page, { tables: false })).toEqual([]);
      await expectNoSeriousA11yViolations(page, "403 page", ["light", "dark"]);
    });
  }

  test("Go back returns to the page before", async ({ page }) => {
    await signIn(page, e2eUsers.support);
    await page.goto("/users");
    await page.goto("/team");
    await page.getByRole("button", { name: "Go back" }).click();
    await expect(page).toHaveURL(/\/users$/);
  });
});

test("a key longer than its limit is refused with the limit in words", async ({ page }) => {
  await signIn(page, e2eUsers.admin);
  await page.goto("/connections/new");
  await page.getByLabel("Name").fill("Too long");
  await page.getByLabel("Management API secret key").fill("k".repeat(513));
  await page.getByRole("button", { name: "Add connection" }).click();
  await expect(page.getByText("A key has at most 512 characters.")).toBeVisible();
});
