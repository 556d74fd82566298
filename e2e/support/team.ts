import { expect, type Browser, type Page } from "@playwright/test";

import { fillSignIn } from "./auth";

/** The team page's helpers, shared by e2e/team-*.spec.ts. */

/** The row (a table row at 1280 px, a card on a phone) of the user with this name. */
export const member = (page: Page, name: string) =>
  page.getByTestId("team-member").filter({ visible: true }).filter({ hasText: name });

export async function openTeam(page: Page) {
  await page.goto("/team");
  await expect(page.getByRole("heading", { level: 1, name: "Team" })).toBeVisible();
}

/**
 * Clicks a team page button that opens a dialog, and returns the dialog once shown. On a loaded CI machine a click
 * right after the page arrived was lost once: as a reader would, this clicks again when no dialog shows within 3 s.
 */
export async function openDialog(page: Page, button: string) {
  const dialog = page.getByRole("dialog");
  await expect(async () => {
    if (!(await dialog.isVisible())) await page.getByRole("button", { name: button }).click({ timeout: 5_000 });
    await expect(dialog).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  return dialog;
}

/** Opens a user's Manage dialog on the team page. */
export async function manage(page: Page, name: string) {
  await openTeam(page);
  return openDialog(page, `Manage ${name}`);
}

/** A browser context of its own (its own cookies), signed in as `user`. */
export async function signedInContext(
  browser: Browser,
  user: { email: string; password: string; name: string },
  headers?: Record<string, string>,
) {
  const context = await browser.newContext({ extraHTTPHeaders: headers });
  const page = await context.newPage();
  await fillSignIn(page, user);
  await expect(page.getByTestId("current-user")).toHaveText(user.name);
  return { context, page };
}

/** The sign-in form's message when it refuses. */
export const failureMessage = (page: Page) => page.locator("#sign-in-failure");
