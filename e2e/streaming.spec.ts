import { expect, test, type Page } from "@playwright/test";

import { signIn } from "./support/auth";
import { emulatorControl } from "./support/emulator";
import { e2eUsers } from "./support/env";

// Acme, the connection every page opens on, lives in the US region; here the US region takes every
// request and never answers, so each service call runs into the console's timeout (SERVICE_TIMEOUT_MS,
// 3 s in the e2e stack: e2e/global-setup.ts).
test.beforeEach(() => emulatorControl("faults", "POST", { region: "us", mode: "hang", count: 1000 }));
test.afterEach(() => emulatorControl("faults", "DELETE"));

/** The console's 3 s timeout, with room for a busy machine. */
const SERVICE_TIMEOUT_MS = 10_000;

/** Sums Chromium's layout-shift entries (those not caused by input) from the page's load on. */
async function watchLayoutShift(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { layoutShift: number };
    w.layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as Array<{ value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) w.layoutShift += entry.value;
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}
const layoutShift = (page: Page) => page.evaluate(() => (window as unknown as { layoutShift: number }).layoutShift);

const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name });
const pending = (page: Page) => page.getByTestId("streamed-section-pending");

/** The heading is on screen while the service section still waits: the page did not wait for it. */
async function expectHeadingBeforeSection(page: Page, name: string) {
  await expect(heading(page, name)).toBeVisible();
  await expect(pending(page)).toBeVisible();
  await expect(page.getByTestId("current-user")).toBeVisible();
}

test("email OTP: the heading paints before the hanging service, whose error takes the card's place without a shift", async ({
  page,
}) => {
  await watchLayoutShift(page);
  await signIn(page, e2eUsers.admin);
  await page.goto("/email-otp", { waitUntil: "commit" });
  await expectHeadingBeforeSection(page, "Email OTP configuration");
  await expect(page.getByText("Could not read the configuration")).toBeVisible({ timeout: SERVICE_TIMEOUT_MS });
  await expect(pending(page)).toHaveCount(0);
  expect(await layoutShift(page)).toBeLessThan(0.05);

  // In-console navigation: the same, from a link in the shell.
  await page.getByRole("navigation", { name: "Main", exact: true }).getByRole("link", { name: "Overview" }).click();
  // Links do not prefetch (components/ui/link.tsx): the overview is on its way until its heading shows.
  await expect(heading(page, "Overview")).toBeVisible();
  await page.getByRole("navigation", { name: "Main", exact: true }).getByRole("link", { name: "Email OTP" }).click();
  await expectHeadingBeforeSection(page, "Email OTP configuration");
  await expect(page.getByText("Could not read the configuration")).toBeVisible({ timeout: SERVICE_TIMEOUT_MS });
});

test("data points: a lookup shows its new URL and a skeleton at once, then the region's timeout", async ({ page }) => {
  await watchLayoutShift(page);
  await signIn(page, e2eUsers.support);
  await page.goto("/data-points");
  await expect(heading(page, "Data points")).toBeVisible();
  await page.getByLabel("Data point id").fill("dp_order_total");
  await page.getByRole("button", { name: "Look up" }).click();
  await expect(page).toHaveURL(/\/data-points\?id=dp_order_total$/);
  await expectHeadingBeforeSection(page, "Data points");
  await expect(page.getByLabel("Data point id")).toHaveValue("dp_order_total");
  await expect(page.getByText("could not be reached in time")).toBeVisible({ timeout: SERVICE_TIMEOUT_MS });
  await expect(pending(page)).toHaveCount(0);

  // A hard load of a lookup link paints the page before the service answers too.
  await page.goto("/data-points?id=dp_loyalty_tier", { waitUntil: "commit" });
  await expectHeadingBeforeSection(page, "Data points");
  await expect(page.getByText("could not be reached in time")).toBeVisible({ timeout: SERVICE_TIMEOUT_MS });
  expect(await layoutShift(page)).toBeLessThan(0.05);
});

test("users: a lookup shows its new URL and a skeleton at once, then the region's timeout", async ({ page }) => {
  await watchLayoutShift(page);
  await signIn(page, e2eUsers.support);
  await page.getByRole("navigation", { name: "Main", exact: true }).getByRole("link", { name: "Users" }).click();
  await expect(heading(page, "Users")).toBeVisible();
  await page.getByLabel(/User id in/).fill("usr_alice");
  await page.getByRole("button", { name: "Look up" }).click();
  await expect(page).toHaveURL(/\/users\?userId=usr_alice&connection=[0-9a-f-]+$/);
  await expectHeadingBeforeSection(page, "Users");
  await expect(page.getByText("could not be reached in time")).toBeVisible({ timeout: SERVICE_TIMEOUT_MS });
  await expect(pending(page)).toHaveCount(0);
  expect(await layoutShift(page)).toBeLessThan(0.05);
});
