import crypto from "node:crypto";

import { expect, test } from "@playwright/test";

import { fillSignIn, signIn } from "./support/auth";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { e2eUsers } from "./support/env";
import { member, openDialog, openTeam } from "./support/team";

/**
 * The team page's invitations: an admin adds a user, who sets their password once through a one-time
 * link (the token in the fragment, never sent to the server) and signs in.
 */

// Several browsers and many round trips per test.
test.describe.configure({ timeout: 120_000 });

const admin = e2eUsers.admin;
const linkUnusable = "This link has expired or was already used. Ask an administrator for a new one.";

test("an admin adds a user and copies the link; the link sets the password once, and the user signs in", async ({
  page,
  context,
  browser,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, admin);
  await openTeam(page);
  await expect(member(page, admin.name)).toContainText("You");

  await openDialog(page, "Add a user");
  const dialog = page.getByRole("dialog", { name: "Add a user" });
  await dialog.getByRole("button", { name: "Add user" }).click();
  await expect(dialog.getByText("Enter an email address.")).toBeVisible();
  await expect(dialog.getByText("Enter a name.")).toBeVisible();
  // An email already used, in another case: said on the field, nothing added.
  await dialog.getByLabel("Email").fill(e2eUsers.support.email.toUpperCase());
  await dialog.getByLabel("Name").fill("Sam Again");
  await dialog.getByRole("button", { name: "Add user" }).click();
  await expect(dialog.getByText("A console user with this email already exists.")).toBeVisible();
  await expect(dialog.getByLabel("Email")).toBeFocused();

  const nina = {
    email: `nina-${crypto.randomBytes(3).toString("hex")}@e2e.test`,
    name: "Nina New",
    password: "nina-chose-this-password",
  };
  await dialog.getByLabel("Email").fill(nina.email);
  await dialog.getByLabel("Name").fill(nina.name);
  await dialog.getByLabel("Role").selectOption("support");
  await dialog.getByRole("button", { name: "Add user" }).click();
  const shown = page.getByRole("dialog", { name: `Set-password link for ${nina.name}` });
  await expect(shown).toContainText(`Send this link to ${nina.name} (${nina.email}). It works once, for 24 hours`);
  await expect(shown).toContainText("it is not shown again");
  await expectNoSeriousA11yViolations(page, "the new user's link");
  await shown.getByRole("button", { name: "Copy link" }).click();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/set-password#[A-Za-z0-9_-]{43}$/);
  await expect(shown.getByTestId("password-link")).toHaveValue(link);
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(member(page, nina.name)).toContainText("Invited — password not set");
  // Relative to the instant the page was first rendered, a little before the link was made.
  await expect(member(page, nina.name)).toContainText(/link expires in (24 h|1 d)/);

  // The new user, in a browser of their own: the token travels in the fragment, never to the server.
  const theirs = await browser.newContext();
  const their = await theirs.newPage();
  const requested: string[] = [];
  their.on("request", (r) => requested.push(r.url()));
  await their.goto(link);
  await expect(their.getByRole("heading", { name: "Set your password" })).toBeVisible();
  await their.getByLabel("New password").fill(nina.password);
  await their.getByLabel("Repeat the password").fill(`${nina.password}!`);
  await their.getByRole("button", { name: "Set password" }).click();
  await expect(their.getByText("The two passwords are not the same.")).toBeVisible();
  await their.getByLabel("Repeat the password").fill(nina.password);
  await their.getByRole("button", { name: "Set password" }).click();
  await expect(their).toHaveURL(/\/sign-in\?notice=password-set$/);
  await expect(their.getByRole("status").filter({ hasText: "Your password is set. Sign in with it." })).toBeVisible();
  const token = new URL(link).hash.slice(1);
  expect(requested.filter((url) => url.includes(token))).toEqual([]);
  await fillSignIn(their, nina);
  await expect(their.getByTestId("current-user")).toHaveText(nina.name);

  // The link worked once.
  const again = await theirs.newPage();
  await again.goto(link);
  await again.getByLabel("New password").fill("someone-else-password");
  await again.getByLabel("Repeat the password").fill("someone-else-password");
  await again.getByRole("button", { name: "Set password" }).click();
  await expect(again.locator("#set-password-failure")).toHaveText(linkUnusable);
  await theirs.close();

  await page.reload();
  await expect(member(page, nina.name)).toContainText("Password");
  await expect(member(page, nina.name)).toContainText("just now");
  await page.goto("/audit?action=user.password_set");
  await expect(page.getByText(nina.email).filter({ visible: true }).first()).toBeVisible();
});

test("a link with no token, or a made-up one, says what to do", async ({ page }) => {
  await page.goto("/set-password");
  await expect(page.getByText("This link is incomplete")).toBeVisible();
  await page.goto(`/set-password#${"A".repeat(43)}`);
  await page.getByLabel("New password").fill("a-long-enough-password");
  await page.getByLabel("Repeat the password").fill("a-long-enough-password");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.locator("#set-password-failure")).toHaveText(linkUnusable);
});
