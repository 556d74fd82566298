import { expect, test, type Page } from "@playwright/test";

import { signIn } from "./support/auth";
import { e2eUsers } from "./support/env";

// A button that needs the page's script is disabled until hydration (docs/development.md, "Nothing the page's script
// runs"). The page's scripts are held back until the test lets them through, and so is the code a dialog loads on
// demand, which says it is loading meanwhile.

/** Holds every script chunk of the page (a slow network, a busy phone) until the returned function is called. */
async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  // Scripts only: the stylesheet is in the same folder, and inline scripts wait for it.
  await page.route("**/_next/static/chunks/**/*.js", async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test("the sign-in form waits for its script: nothing is sent in the URL before, and it signs in after", async ({
  page,
}) => {
  const release = await holdScripts(page);
  await page.goto("/sign-in", { waitUntil: "commit" });
  const submit = page.getByRole("button", { name: "Sign in", exact: true });
  await expect(submit).toBeDisabled();
  await page.getByLabel("Email").fill(e2eUsers.support.email);
  await page.getByLabel("Password").fill(e2eUsers.support.password);
  await page.getByLabel("Password").press("Enter");
  expect(new URL(page.url()).search).toBe("");

  release();
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page.getByTestId("current-user")).toHaveText(e2eUsers.support.name);
});

test("the console's buttons and the theme choice are disabled until hydrated, then act on the first click", async ({
  page,
}) => {
  await signIn(page, e2eUsers.admin, "/destinations");
  const release = await holdScripts(page);
  await page.goto("/destinations", { waitUntil: "commit" });
  const add = page.getByRole("button", { name: "Add a destination" });
  await expect(add).toBeVisible();
  await expect(add).toBeDisabled();
  await expect(page.getByRole("button", { name: "Sign out", includeHidden: true })).toBeDisabled();
  await expect(page.getByRole("radio", { name: /Dark/, includeHidden: true }).first()).toBeDisabled();

  release();
  await expect(add).toBeEnabled();
  await add.click();
  await expect(page.getByRole("form", { name: "Add a destination" })).toBeVisible();
});

test("the phone menu opens on the first tap once hydrated, and is disabled before", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signIn(page, e2eUsers.support, "/users");
  const release = await holdScripts(page);
  await page.goto("/users", { waitUntil: "commit" });
  const menu = page.getByRole("button", { name: "Menu" });
  await expect(menu).toBeDisabled();
  release();
  await expect(menu).toBeEnabled();
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await context.close();
});

test("a dialog whose fields load on demand says it is loading while they are held, then shows its form with the name focused", async ({
  page,
}) => {
  await signIn(page, e2eUsers.admin, "/destinations");
  const add = page.getByRole("button", { name: "Add a destination" });
  await expect(add).toBeEnabled();
  const release = await holdScripts(page);
  await add.click();
  const dialog = page.getByRole("dialog", { name: "Add a destination" });
  await expect(dialog.getByRole("status")).toHaveText("Loading the form…");
  release();
  await expect(dialog.getByRole("form", { name: "Add a destination" })).toBeVisible();
  await expect(dialog.getByLabel("Name")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(add).toBeFocused();
});
