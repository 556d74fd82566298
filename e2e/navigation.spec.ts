import { expect, test, type Request } from "@playwright/test";

import { signIn } from "./support/auth";

const isPrefetch = (request: Request) => request.headers()["next-router-prefetch"] !== undefined;

test("a page view prefetches no other page: links load their page when clicked", async ({ page }) => {
  const prefetches: string[] = [];
  page.on("request", (request) => {
    if (isPrefetch(request)) prefetches.push(new URL(request.url()).pathname);
  });
  await signIn(page);
  for (const path of ["/", "/connections", "/webhooks"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
  }
  await page.getByRole("navigation", { name: "Main", exact: true }).getByRole("link", { name: "Destinations" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Destinations" })).toBeVisible();
  expect(prefetches).toEqual([]);
});

test("on a phone the menu stays open, the picked page's dot pulsing, until that page arrives", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  await page.goto("/alerts");
  // The page's answer held back a while, as on a slow network.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/destinations**", async (route) => {
    await held;
    await route.continue();
  });
  const menu = page.getByRole("button", { name: /menu/i });
  await menu.click();
  const link = page
    .getByRole("navigation", { name: "Main (compact)", exact: true })
    .getByRole("link", { name: "Destinations" });
  await link.click();
  await expect(link.locator("[data-pending]")).toHaveCount(1);
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  release();
  await expect(page.getByRole("heading", { level: 1, name: "Destinations" })).toBeVisible();
  await expect(menu).toHaveAttribute("aria-expanded", "false");

  // The page the menu is on closes it at once: nothing is on its way.
  await menu.click();
  await page
    .getByRole("navigation", { name: "Main (compact)", exact: true })
    .getByRole("link", { name: "Destinations" })
    .click();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
});
