import { expect, test, type BrowserContext } from "@playwright/test";

import { fillSignIn, signIn } from "./support/auth";
import { e2eUsers } from "./support/env";
import { failureMessage, manage, member, openTeam, signedInContext } from "./support/team";

/**
 * The team page's changes to a member and what they do to the member's sessions: a role change, disabling,
 * signing out everywhere, unlocking. Each change has its own seeded user (e2eUsers.team*), so no other spec
 * sees it.
 */

// Several browsers and many round trips per test.
test.describe.configure({ timeout: 120_000 });

const admin = e2eUsers.admin;
const TOO_MANY = /Too many failed sign-in attempts/;
const sessionOf = async (context: BrowserContext) => (await context.request.get("/api/auth/session")).json();

test("a role change takes effect at the user's next request, and demoting is confirmed", async ({ page, browser }) => {
  const rita = e2eUsers.teamRole;
  const theirs = await signedInContext(browser, rita);
  await expect(theirs.page.getByRole("link", { name: "Team" })).toHaveCount(0);

  await signIn(page, admin);
  let dialog = await manage(page, rita.name);
  await dialog.getByRole("button", { name: "Make admin" }).click();
  await expect(page.getByText(`${rita.name} is now an admin.`)).toBeVisible();
  await expect(member(page, rita.name)).toContainText("admin");

  // Their session carried the old role: it ends, and signing in again gives the new one.
  await theirs.page.goto("/");
  await expect(theirs.page).toHaveURL(/\/sign-in/);
  await fillSignIn(theirs.page, rita);
  await expect(
    theirs.page.getByRole("navigation", { name: "Main", exact: true }).getByRole("link", { name: "Team" }),
  ).toBeVisible();

  dialog = await manage(page, rita.name);
  await dialog.getByRole("button", { name: "Make support" }).click();
  await expect(dialog.getByRole("heading", { name: `Make ${rita.name} support?` })).toBeVisible();
  await expect(dialog).toContainText("loses admin access");
  await dialog.getByRole("button", { name: "Back" }).click();
  await expect(dialog.getByRole("button", { name: "Make support" })).toBeFocused();
  await dialog.getByRole("button", { name: "Make support" }).click();
  await dialog.getByRole("button", { name: "Make support" }).click();
  await expect(page.getByText(`${rita.name} is now support.`)).toBeVisible();
  await expect(member(page, rita.name)).toContainText("support");
  expect((await theirs.page.goto("/team"))?.url()).toContain("/sign-in");
  await theirs.context.close();
});

test("a disabled user is signed out and cannot sign in until enabled again", async ({ page, browser }) => {
  const dan = e2eUsers.teamDisable;
  const theirs = await signedInContext(browser, dan, { "x-forwarded-for": "203.0.113.71" });

  await signIn(page, admin);
  const dialog = await manage(page, dan.name);
  await dialog.getByRole("button", { name: "Disable" }).click();
  await expect(dialog).toContainText(
    "cannot sign in, with a password or single sign-on, until an admin enables the account again",
  );
  await dialog.getByRole("button", { name: "Disable" }).click();
  await expect(page.getByText(`Disabled ${dan.name}.`)).toBeVisible();
  await expect(member(page, dan.name)).toContainText("Disabled");

  await theirs.page.goto("/");
  await expect(theirs.page).toHaveURL(/\/sign-in/);
  expect(await sessionOf(theirs.context)).toEqual({});
  await fillSignIn(theirs.page, dan);
  await expect(failureMessage(theirs.page)).toContainText("This account is disabled");

  await (await manage(page, dan.name)).getByRole("button", { name: "Enable" }).click();
  await expect(page.getByText(`Enabled ${dan.name}.`)).toBeVisible();
  await expect(member(page, dan.name)).toContainText("Active");
  await fillSignIn(theirs.page, dan);
  await expect(theirs.page.getByTestId("current-user")).toHaveText(dan.name);
  await theirs.context.close();
});

test("signing a user out everywhere ends their sessions at the next request, /api/auth/session included", async ({
  page,
  browser,
}) => {
  const rex = e2eUsers.teamRevoke;
  const first = await signedInContext(browser, rex);
  const second = await signedInContext(browser, rex);
  expect(await sessionOf(first.context)).toMatchObject({ user: { email: rex.email, role: "support" } });
  const cookies = await first.context.cookies();

  await signIn(page, admin);
  const dialog = await manage(page, rex.name);
  await dialog.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(dialog.getByRole("heading", { name: `Sign ${rex.name} out everywhere?` })).toBeVisible();
  await dialog.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page.getByText(`Signed ${rex.name} out everywhere.`)).toBeVisible();

  // An API refuses a copy of the old cookie, as it would a stolen one.
  const replay = await browser.newContext();
  await replay.addCookies(cookies);
  expect((await replay.request.get("/api/webhook-events")).status()).toBe(401);
  await replay.close();
  // The session endpoint answers no session and clears the cookie.
  expect(await sessionOf(first.context)).toEqual({});
  expect((await first.context.cookies()).filter((c) => c.name.includes("session-token"))).toEqual([]);
  await first.page.goto("/webhooks");
  await expect(first.page).toHaveURL(/\/sign-in/);
  await second.page.reload();
  await expect(second.page).toHaveURL(/\/sign-in/);
  // Not disabled: they may sign in again at once.
  await fillSignIn(second.page, rex);
  await expect(second.page.getByTestId("current-user")).toHaveText(rex.name);
  await expect(page.getByTestId("current-user")).toHaveText(admin.name);
  await first.context.close();
  await second.context.close();
});

test("a locked-out user is shown as such, and unlocking lets them sign in at once", async ({ page, browser }) => {
  const lou = e2eUsers.teamLocked;
  const theirs = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": "203.0.113.72" } });
  const their = await theirs.newPage();
  for (let i = 0; i < 5; i++) {
    await fillSignIn(their, { email: lou.email, password: `wrong-password-${i}` });
    await expect(failureMessage(their)).toHaveText("Email or password is incorrect.");
  }
  await fillSignIn(their, lou);
  await expect(failureMessage(their)).toHaveText(TOO_MANY);

  await signIn(page, admin);
  await openTeam(page);
  await expect(member(page, lou.name)).toContainText("Locked out");
  const dialog = await manage(page, lou.name);
  await dialog.getByRole("button", { name: "Unlock sign-in" }).click();
  await expect(page.getByText(`${lou.name} may sign in again.`)).toBeVisible();
  await expect(member(page, lou.name)).toContainText("Active");
  await expect(member(page, lou.name)).not.toContainText("Locked out");

  await fillSignIn(their, lou);
  await expect(their.getByTestId("current-user")).toHaveText(lou.name);
  await theirs.close();
});
