import crypto from "node:crypto";

import { expect, test } from "@playwright/test";

import { fillSignIn, signIn } from "./support/auth";
import { e2eUsers } from "./support/env";
import { captureNextServerAction, replayServerAction, type CapturedAction } from "./support/server-actions";
import { failureMessage, manage, member, openDialog, openTeam, signedInContext } from "./support/team";

/** Support has no team page, and every team action, captured from an admin and replayed as support, is refused. */

// Several browsers and many round trips per test.
test.describe.configure({ timeout: 120_000 });

const admin = e2eUsers.admin;

test("support has no team page, and every team action called directly is refused", async ({ page, browser }) => {
  // The admin makes each kind of change once, on a user of their own, to capture the requests.
  await signIn(page, admin);
  await openTeam(page);
  const sue = { email: `sue-${crypto.randomBytes(3).toString("hex")}@e2e.test`, name: "Sue Subject" };
  const captured: Record<string, CapturedAction> = {};
  const capture = async (name: string, click: () => Promise<void>, done: string) => {
    const request = captureNextServerAction(page);
    await click();
    captured[name] = await request;
    await expect(page.getByText(done)).toBeVisible();
  };
  let dialog = await openDialog(page, "Add a user");
  await dialog.getByLabel("Email").fill(sue.email);
  await dialog.getByLabel("Name").fill(sue.name);
  await capture("add", () => dialog.getByRole("button", { name: "Add user" }).click(), `Added ${sue.name}.`);
  await dialog.getByRole("button", { name: "Done" }).click();

  dialog = await manage(page, sue.name);
  await capture(
    "passwordLink",
    () => dialog.getByRole("button", { name: "New set-password link" }).click(),
    `New set-password link for ${sue.name}.`,
  );
  await dialog.getByRole("button", { name: "Done" }).click();
  dialog = await manage(page, sue.name);
  await capture(
    "changeRole",
    () => dialog.getByRole("button", { name: "Make admin" }).click(),
    `${sue.name} is now an admin.`,
  );
  dialog = await manage(page, sue.name);
  await dialog.getByRole("button", { name: "Make support" }).click();
  await dialog.getByRole("button", { name: "Make support" }).click();
  await expect(member(page, sue.name)).toContainText("support");
  dialog = await manage(page, sue.name);
  await dialog.getByRole("button", { name: "Sign out everywhere" }).click();
  await capture(
    "revokeSessions",
    () => dialog.getByRole("button", { name: "Sign out everywhere" }).click(),
    `Signed ${sue.name} out everywhere.`,
  );
  dialog = await manage(page, sue.name);
  await dialog.getByRole("button", { name: "Disable" }).click();
  await capture("setDisabled", () => dialog.getByRole("button", { name: "Disable" }).click(), `Disabled ${sue.name}.`);
  dialog = await manage(page, sue.name);
  await dialog.getByRole("button", { name: "Enable" }).click();
  await expect(member(page, sue.name)).toContainText("Active");
  // Locked out by failures from one address (she has no password yet, so every attempt fails).
  const guesser = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": "203.0.113.73" } });
  const guess = await guesser.newPage();
  for (let i = 0; i < 5; i++) {
    await fillSignIn(guess, { email: sue.email, password: `guess-number-${i}` });
    await expect(failureMessage(guess)).toHaveText("Email or password is incorrect.");
  }
  await guesser.close();
  dialog = await manage(page, sue.name);
  await capture(
    "unlock",
    () => dialog.getByRole("button", { name: "Unlock sign-in" }).click(),
    `${sue.name} may sign in again.`,
  );
  expect(Object.keys(captured).sort()).toEqual([
    "add",
    "changeRole",
    "passwordLink",
    "revokeSessions",
    "setDisabled",
    "unlock",
  ]);

  // Support: no navigation item, the page is refused, and each captured action, replayed, is refused.
  const support = await signedInContext(browser, e2eUsers.support);
  await expect(support.page.getByRole("link", { name: "Team" })).toHaveCount(0);
  const response = await support.page.goto("/team");
  expect(response?.status()).toBe(403);
  await expect(support.page.getByRole("heading", { name: "You do not have access to this page" })).toBeVisible();
  const added = { ...captured.add!, body: captured.add!.body.replace(sue.email, `x-${sue.email}`) };
  for (const [name, action] of Object.entries({ ...captured, add: added })) {
    const replay = await replayServerAction(support.context.request, action);
    // Refused twice over, as for email OTP: the proxy answers the admin-only section with its
    // access-denied page (so Next finds no such action there), and each action checks the role itself
    // (lib/team/actions.test.ts calls each one as support).
    expect(replay.status === 409 || replay.text.includes("Only admin users can do this."), name).toBe(true);
    expect(replay.text, name).not.toContain('"ok":true');
    expect(replay.text, name).not.toContain("/set-password#");
  }
  await support.context.close();

  // Nothing changed: no second user, Sue still support, enabled and not locked; the audit log has only the admin's
  // changes.
  await openTeam(page);
  await expect(member(page, `x-${sue.email}`)).toHaveCount(0);
  await expect(member(page, sue.name)).toContainText("support");
  await expect(member(page, sue.name)).toContainText("Active");
  // Control: the same request with the admin's cookies is accepted, so the refusals were the role check.
  const control = await replayServerAction(page.request, captured.revokeSessions!);
  expect(control.text).toContain('"ok":true');
});
