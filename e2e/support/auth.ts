import { expect, type Cookie, type Page } from "@playwright/test";

import { e2eUsers } from "./env";

export type E2eUser = (typeof e2eUsers)[keyof typeof e2eUsers];

export async function fillSignIn(page: Page, user: { email: string; password: string }, callbackPath?: string) {
  await page.goto(callbackPath ? `/sign-in?callbackUrl=${encodeURIComponent(callbackPath)}` : "/sign-in");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/**
 * Each user's session cookie from their last sign-in through the form, in this worker. A test that signs
 * in as a user again starts from it (a password check and a page fewer); one the console no longer
 * accepts (a test ended that user's sessions) is dropped and the form used again.
 */
const sessionCookies = new Map<string, Cookie[]>();
const isSessionCookie = (cookie: Cookie) => cookie.name.includes("next-auth.session-token");

/**
 * Where signIn lands unless told: a page every role may open that asks neither the service nor a heavy
 * query (the overview does both).
 */
const landingPath = "/users";

/**
 * Signs the page in as `user` and opens `path` (a console page, with its shell), waiting for the shell there. A test
 * that starts on a page of its own names it here: a page load fewer than landing elsewhere first
 * (docs/performance.md, "The end-to-end suite").
 */
export async function signIn(page: Page, user: E2eUser = e2eUsers.admin, path = landingPath) {
  const currentUser = page.getByTestId("current-user");
  const saved = sessionCookies.get(user.email);
  if (saved) {
    await page.context().addCookies(saved);
    await page.goto(path);
    if (new URL(page.url()).pathname !== "/sign-in" && (await currentUser.textContent()) === user.name) return;
    sessionCookies.delete(user.email);
    for (const { name } of saved) await page.context().clearCookies({ name });
  }
  await fillSignIn(page, user, path);
  await expect(currentUser).toHaveText(user.name);
  const session = (await page.context().cookies()).filter(isSessionCookie);
  if (session.length > 0) sessionCookies.set(user.email, session);
}

/**
 * Waits until the page is hydrated: the shell's Sign out button is disabled until then. A test that adds
 * nodes to the page waits for it first: hydration removes what the served HTML did not have (a planted
 * node was gone before the scan that should have found it, in a CI run).
 */
export async function waitForHydration(page: Page) {
  await expect(page.getByRole("button", { name: "Sign out", includeHidden: true })).toBeEnabled();
}
