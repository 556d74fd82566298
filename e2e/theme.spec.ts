import { expect, test, type Page, type Response } from "@playwright/test";

import { themeStorageKey } from "../components/shell/theme-settings";
import { signIn } from "./support/auth";
import { showColorScheme } from "./support/axe";
import { e2eUsers } from "./support/env";

/**
 * The theme: Light, Dark or System, chosen in the header (or the phone menu) with the keyboard, kept
 * across a reload and shown from the first painted frame, before any of the console's JavaScript runs,
 * by next-themes' inline script, which the CSP lets run with the request's nonce.
 */

declare global {
  interface Window {
    firstContentFrame?: { htmlClass: string; colorScheme: string; bodyBackground: string };
    cspViolations?: string[];
  }
}

/**
 * From the next navigation on: the state of <html> and <body> in the first frame that paints any of the
 * page's content (requestAnimationFrame runs just before a frame is painted), and any CSP violation.
 */
async function recordFirstContentFrame(page: Page) {
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      window.cspViolations?.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
    const look = () => {
      const body = document.body;
      if (!body || !body.querySelector("main, h1")) return requestAnimationFrame(look);
      window.firstContentFrame = {
        htmlClass: document.documentElement.className,
        colorScheme: getComputedStyle(document.documentElement).colorScheme,
        bodyBackground: getComputedStyle(body).backgroundColor,
      };
    };
    requestAnimationFrame(look);
  });
}

/**
 * Loads `path` (a reload when it is the current page) with the console's scripts refused, so nothing but
 * the inline theme script can set the theme, and returns the first content frame's state, any CSP
 * violation and the response.
 */
async function loadWithoutAppScripts(page: Page, path?: string) {
  await recordFirstContentFrame(page);
  await page.route("**/_next/static/**/*.js", (route) => route.abort());
  // Not waiting for the whole (streamed) page: the first frame is what counts.
  const response = (
    path ? await page.goto(path, { waitUntil: "commit" }) : await page.reload({ waitUntil: "commit" })
  ) as Response;
  await page.waitForFunction(() => window.firstContentFrame !== undefined);
  const frame = await page.evaluate(() => window.firstContentFrame!);
  const violations = await page.evaluate(() => window.cspViolations ?? []);
  // Every refused script has failed (and logged its error) before the scripts are let through again, so
  // that none of those errors reaches a listener of the next load (it did once, on a busy machine).
  await page.waitForLoadState("load");
  await page.unroute("**/_next/static/**/*.js");
  return { frame, violations, response };
}

/** The served page carries the theme script with the nonce its CSP allows, and no theme of its own. */
async function expectThemeScriptAllowedByCsp(response: Response) {
  const nonce = /'nonce-([^']+)'/.exec(response.headers()["content-security-policy"] ?? "")?.[1];
  expect(nonce, "the CSP has a nonce").toBeTruthy();
  const html = await response.text();
  expect(html).not.toMatch(/<html[^>]*class="[^"]*dark/);
  const script = html.match(/<script nonce="([^"]+)">[^<]*tenant-console-theme[^<]*<\/script>/);
  expect(script, "the inline theme script is in the served HTML").not.toBeNull();
  expect(script?.[1]).toBe(nonce);
}

const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const html = (page: Page) => page.locator("html");

// One test, one sign-in: the steps build on each other (the choice made by keyboard is the one reloaded).
test("the theme control works by keyboard, System follows the system, Dark persists with no flash", async ({
  page,
}) => {
  await signIn(page, e2eUsers.support);
  // A light page to reload (the overview reads charts): any page of the console has the same header.
  await page.goto("/users");
  const theme = page.getByRole("group", { name: "Theme" });
  const radio = (name: string) => theme.getByRole("radio", { name, exact: true });

  await test.step("System is the default choice, and follows the system's colour scheme", async () => {
    await expect(radio("System")).toBeChecked();
    await showColorScheme(page, "dark");
    await showColorScheme(page, "light");
  });
  const lightBackground = await bodyBackground(page);

  await test.step("Tab reaches the current choice, an arrow key picks Dark", async () => {
    await page.getByRole("button", { name: "Sign out" }).focus();
    await page.keyboard.press("Shift+Tab");
    await expect(radio("System")).toBeFocused();
    await page.keyboard.press("ArrowLeft");
    await expect(radio("Dark")).toBeChecked();
    await expect(html(page)).toHaveClass(/\bdark\b/);
    expect(await page.evaluate((key) => localStorage.getItem(key), themeStorageKey)).toBe("dark");
  });
  const darkBackground = await bodyBackground(page);
  expect(darkBackground).not.toBe(lightBackground);

  await test.step("a reload paints dark from its first frame, before the console's scripts run", async () => {
    const { frame, violations, response } = await loadWithoutAppScripts(page);
    expect(frame).toEqual({
      htmlClass: expect.stringMatching(/\bdark\b/),
      colorScheme: "dark",
      bodyBackground: darkBackground,
    });
    expect(violations).toEqual([]);
    await expectThemeScriptAllowedByCsp(response);
    // Not hydrated: a click on Sign out would do nothing, so the button says it cannot be used yet.
    await expect(page.getByRole("button", { name: "Sign out" })).toBeDisabled();
  });

  await test.step("hydrated, the control shows Dark (the system's scheme is light), with no hydration error", async () => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await page.reload();
    await expect(radio("Dark")).toBeChecked();
    await expect(html(page)).toHaveClass(/\bdark\b/);
    expect(errors).toEqual([]);
  });

  await test.step("on a phone the menu has the control, by keyboard too", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: "Menu" }).click();
    await expect(radio("Dark")).toBeChecked();
    await radio("Dark").focus();
    await page.keyboard.press("ArrowLeft");
    await expect(radio("Light")).toBeChecked();
    await expect(html(page)).not.toHaveClass(/\bdark\b/);
    await page.keyboard.press("ArrowRight");
    await expect(radio("Dark")).toBeChecked();
    await expect(html(page)).toHaveClass(/\bdark\b/);
  });

  await test.step("signed out, the sign-in page paints the stored choice from its first frame too", async () => {
    await page.context().clearCookies();
    const { frame, violations } = await loadWithoutAppScripts(page, "/sign-in");
    expect(frame).toEqual({
      htmlClass: expect.stringMatching(/\bdark\b/),
      colorScheme: "dark",
      bodyBackground: darkBackground,
    });
    expect(violations).toEqual([]);
    await expect(page).toHaveURL(/\/sign-in$/);
  });
});
