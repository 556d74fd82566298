import crypto from "node:crypto";

import { expect, test, type Page } from "@playwright/test";

import { signIn } from "./support/auth";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { e2eUsers } from "./support/env";
import { manage, member, openTeam, signedInContext } from "./support/team";
import { createToken } from "./support/tokens";

/**
 * An admin makes an API token on its page, sees the secret once, a script uses it over HTTP against the
 * running build (never for a page), and once revoked it is refused.
 */

test("an admin creates a token, it reads /api but no page, and once revoked it gets 401", async ({ page, request }) => {
  const name = `e2e script ${crypto.randomBytes(3).toString("hex")}`;
  await signIn(page, e2eUsers.admin, "/tokens");
  await expect(page.getByRole("heading", { name: "API tokens", level: 1 })).toBeVisible();

  await page.getByRole("button", { name: "Create a token" }).click();
  const dialog = page.getByRole("dialog", { name: "Create an API token" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Role").selectOption("support");
  const actionCall = page.waitForRequest((r) => r.method() === "POST" && Boolean(r.headers()["next-action"]));
  await dialog.getByRole("button", { name: "Create token" }).click();
  const created = await actionCall;
  const shown = page.getByRole("dialog", { name: `Secret of ${name}` });
  const secret = (await shown.getByTestId("api-token-secret").textContent()) ?? "";
  expect(secret).toMatch(/^tcapi_[A-Za-z0-9_-]{43}$/);
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(shown).toBeHidden();
  const row = page.getByTestId("api-token").filter({ hasText: name }).filter({ visible: true });
  await expect(row).toContainText("Never");
  await page.reload();
  expect(await page.content()).not.toContain(secret);

  const bearer = { authorization: `Bearer ${secret}` };
  const events = await request.get("/api/webhook-events", { headers: bearer });
  expect(events.status()).toBe(200);
  expect(await events.json()).toHaveProperty("events");
  // Sessions only for pages: the token alone is sent to sign in.
  const pageAnswer = await request.get("/webhooks", { headers: bearer, maxRedirects: 0 });
  expect(pageAnswer.status()).toBe(307);
  expect(pageAnswer.headers().location).toContain("/sign-in");
  // Nor a server action: the page's own call to create a token, sent again with the token instead of the session.
  const actionAnswer = await request.post("/tokens", {
    headers: {
      ...bearer,
      "next-action": created.headers()["next-action"]!,
      "content-type": created.headers()["content-type"]!,
      accept: "text/x-component",
      origin: new URL(page.url()).origin,
    },
    data: created.postData() ?? "",
    maxRedirects: 0,
  });
  expect(actionAnswer.status()).toBe(307);
  expect(actionAnswer.headers().location).toContain("/sign-in");

  await page.reload();
  // Created, and now last used: two times in the row.
  await expect(row.locator("time")).toHaveCount(2);
  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  const confirm = page.getByRole("dialog", { name: `Revoke ${name}?` });
  await confirm.getByRole("button", { name: "Revoke token" }).click();
  await expect(row).toContainText("Revoked");
  const refused = await request.get("/api/webhook-events", { headers: bearer });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toEqual({ error: "unauthorized", errorDescription: "This API token was revoked." });
});

test("a member's tokens are listed on the team page and end for good when they are demoted or signed out everywhere", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const tia = e2eUsers.teamTokens;
  const theirs = await signedInContext(browser, tia);
  // Names of this run's own: a retry finds the first try's tokens already made.
  const [adminName, supportName] = ["admin", "support"].map(
    (role) => `tia ${role} script ${crypto.randomBytes(3).toString("hex")}`,
  ) as [string, string];
  const adminToken = await createToken(theirs.page, adminName, "admin");
  const supportToken = await createToken(theirs.page, supportName, "support");
  await theirs.context.close();
  const status = async (secret: string) =>
    (await request.get("/api/webhook-events", { headers: { authorization: `Bearer ${secret}` } })).status();

  await signIn(page, e2eUsers.admin);
  await openTeam(page);
  await expect(member(page, tia.name)).toContainText(adminName);
  let dialog = await manage(page, tia.name);
  await dialog.getByRole("button", { name: "Make support" }).click();
  await expect(dialog).toContainText(`Their API token (${adminName}) is revoked for good.`);
  await dialog.getByRole("button", { name: "Make support" }).click();
  await expect(page.getByText(`${tia.name} is now support.`)).toBeVisible();
  expect([await status(adminToken), await status(supportToken)]).toEqual([401, 200]);

  dialog = await manage(page, tia.name);
  await dialog.getByRole("button", { name: "Make admin" }).click();
  await expect(page.getByText(`${tia.name} is now an admin.`)).toBeVisible();
  expect(await status(adminToken)).toBe(401);

  dialog = await manage(page, tia.name);
  await dialog.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(dialog).toContainText(`Their API token (${supportName}) is revoked for good.`);
  await dialog.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page.getByText(`Signed ${tia.name} out everywhere.`)).toBeVisible();
  await expect(member(page, tia.name)).toContainText("None");
  expect(await status(supportToken)).toBe(401);

  await page.goto("/tokens");
  const rows = page.getByTestId("api-token").filter({ visible: true });
  await expect(rows.filter({ hasText: adminName })).toContainText("its user's role was lowered");
  await expect(rows.filter({ hasText: supportName })).toContainText("its user's sessions were revoked");
});

/** Opens the dialog with a new token's secret shown (the tokens page open), and answers it. */
async function showNewSecret(page: Page, name: string) {
  await page.getByRole("button", { name: "Create a token" }).click();
  const form = page.getByRole("dialog", { name: "Create an API token" });
  await form.getByLabel("Name").fill(name);
  await form.getByRole("button", { name: "Create token" }).click();
  const shown = page.getByRole("dialog", { name: `Secret of ${name}` });
  await expect(shown.getByTestId("api-token-secret")).toBeVisible();
  return shown;
}

const question = "Close without copying? You will not see this token again.";

test("closing a new token's dialog before its secret is copied asks first, on Escape, the close button and a click outside", async ({
  page,
}) => {
  await signIn(page, e2eUsers.admin, "/tokens");
  const shown = await showNewSecret(page, `e2e uncopied ${crypto.randomBytes(3).toString("hex")}`);
  const ask = shown.getByRole("alertdialog");

  await page.keyboard.press("Escape");
  await expect(ask).toContainText(question);
  await expect(shown.getByRole("button", { name: "Go back" })).toBeFocused();
  await shown.getByRole("button", { name: "Go back" }).click();
  await expect(ask).toBeHidden();

  await shown.getByRole("button", { name: "Dismiss" }).click();
  await expect(ask).toContainText(question);
  await shown.getByRole("button", { name: "Go back" }).click();

  // The backdrop: a click at the window's corner, outside the dialog's box.
  await page.mouse.click(5, 5);
  await expect(ask).toContainText(question);
  await expect(shown).toBeVisible();
  await expectNoSeriousA11yViolations(page, "token dialog, asking before closing", ["light", "dark"]);

  await shown.getByRole("button", { name: "Close without copying" }).click();
  await expect(shown).toBeHidden();
});

test("a click outside keeps a form dialog open once something was typed in it, and closes an untouched one", async ({
  page,
}) => {
  await signIn(page, e2eUsers.admin, "/tokens");
  const form = page.getByRole("dialog", { name: "Create an API token" });
  await page.getByRole("button", { name: "Create a token" }).click();
  await page.mouse.click(5, 5);
  await expect(form).toBeHidden();

  await page.getByRole("button", { name: "Create a token" }).click();
  await form.getByLabel("Name").fill("half typed");
  await page.mouse.click(5, 5);
  await expect(form).toBeVisible();
  await expect(form.getByLabel("Name")).toHaveValue("half typed");
  await page.keyboard.press("Escape");
  await expect(form).toBeHidden();
});

test("once a new token's secret is copied, Escape closes its dialog without asking", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, e2eUsers.admin, "/tokens");
  const shown = await showNewSecret(page, `e2e copied ${crypto.randomBytes(3).toString("hex")}`);
  const secret = await shown.getByTestId("api-token-secret").textContent();
  await shown.getByRole("button", { name: "Copy secret" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await page.keyboard.press("Escape");
  await expect(shown).toBeHidden();
});
