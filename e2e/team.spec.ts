import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { fillSignIn, signIn } from "./support/auth";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { e2eUsers } from "./support/env";
import { startProcess, stopProcess, waitForUrl } from "./support/processes";
import { captureNextServerAction, replayServerAction, type CapturedAction } from "./support/server-actions";

/**
 * The team page: admins add users (who set their password through a one-time link), change roles,
 * disable, sign out everywhere and unlock; support has no team page and every team action is refused.
 * Each change has its own seeded user (e2eUsers.team*), so no other spec sees it.
 */

// Several browsers and many round trips per test.
test.describe.configure({ timeout: 120_000 });

const admin = e2eUsers.admin;
const TOO_MANY = /Too many failed sign-in attempts/;
const linkUnusable = "This link has expired or was already used. Ask an administrator for a new one.";

/** The row (a table row at 1280 px, a card on a phone) of the user with this name. */
const member = (page: Page, name: string) => page.getByTestId("team-member").filter({ visible: true }).filter({ hasText: name });

async function openTeam(page: Page) {
  await page.goto("/team");
  await expect(page.getByRole("heading", { level: 1, name: "Team" })).toBeVisible();
}

/** Opens a user's Manage dialog on the team page. */
async function manage(page: Page, name: string) {
  await openTeam(page);
  await page.getByRole("button", { name: `Manage ${name}` }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  return dialog;
}

/** A browser context of its own (its own cookies), signed in as `user`. */
async function signedInContext(browser: Browser, user: { email: string; password: string; name: string }, headers?: Record<string, string>) {
  const context = await browser.newContext({ extraHTTPHeaders: headers });
  const page = await context.newPage();
  await fillSignIn(page, user);
  await expect(page.getByTestId("current-user")).toHaveText(user.name);
  return { context, page };
}

const sessionOf = async (context: BrowserContext) => (await context.request.get("/api/auth/session")).json();
const failureMessage = (page: Page) => page.locator("#sign-in-failure");

test("an admin adds a user and copies the link; the link sets the password once, and the user signs in", async ({ page, context, browser }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, admin);
  await openTeam(page);
  await expect(member(page, admin.name)).toContainText("You");

  await page.getByRole("button", { name: "Add a user" }).click();
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

  const nina = { email: `nina-${crypto.randomBytes(3).toString("hex")}@e2e.test`, name: "Nina New", password: "nina-chose-this-password" };
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
  await expect(theirs.page.getByRole("navigation", { name: "Main", exact: true }).getByRole("link", { name: "Team" })).toBeVisible();

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
  await expect(dialog).toContainText("cannot sign in, with a password or single sign-on, until an admin enables the account again");
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

test("signing a user out everywhere ends their sessions at the next request, /api/auth/session included", async ({ page, browser }) => {
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
  await page.getByRole("button", { name: "Add a user" }).click();
  let dialog = page.getByRole("dialog");
  await dialog.getByLabel("Email").fill(sue.email);
  await dialog.getByLabel("Name").fill(sue.name);
  await capture("add", () => dialog.getByRole("button", { name: "Add user" }).click(), `Added ${sue.name}.`);
  await dialog.getByRole("button", { name: "Done" }).click();

  dialog = await manage(page, sue.name);
  await capture("passwordLink", () => dialog.getByRole("button", { name: "New set-password link" }).click(), `New set-password link for ${sue.name}.`);
  await dialog.getByRole("button", { name: "Done" }).click();
  dialog = await manage(page, sue.name);
  await capture("changeRole", () => dialog.getByRole("button", { name: "Make admin" }).click(), `${sue.name} is now an admin.`);
  dialog = await manage(page, sue.name);
  await dialog.getByRole("button", { name: "Make support" }).click();
  await dialog.getByRole("button", { name: "Make support" }).click();
  await expect(member(page, sue.name)).toContainText("support");
  dialog = await manage(page, sue.name);
  await dialog.getByRole("button", { name: "Sign out everywhere" }).click();
  await capture("revokeSessions", () => dialog.getByRole("button", { name: "Sign out everywhere" }).click(), `Signed ${sue.name} out everywhere.`);
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
  await capture("unlock", () => dialog.getByRole("button", { name: "Unlock sign-in" }).click(), `${sue.name} may sign in again.`);
  expect(Object.keys(captured).sort()).toEqual(["add", "changeRole", "passwordLink", "revokeSessions", "setDisabled", "unlock"]);

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
    // (app/(console)/team/actions.test.ts calls each one as support).
    expect(replay.status === 409 || replay.text.includes("Only admin users can do this."), name).toBe(true);
    expect(replay.text, name).not.toContain('"ok":true');
    expect(replay.text, name).not.toContain("/set-password#");
  }
  await support.context.close();

  // Nothing changed: no second user, Sue still support, enabled and not locked; the audit log has only the admin's changes.
  await openTeam(page);
  await expect(member(page, `x-${sue.email}`)).toHaveCount(0);
  await expect(member(page, sue.name)).toContainText("support");
  await expect(member(page, sue.name)).toContainText("Active");
  // Control: the same request with the admin's cookies is accepted, so the refusals were the role check.
  const control = await replayServerAction(page.request, captured.revokeSessions!);
  expect(control.text).toContain('"ok":true');
});

test.describe("the last enabled admin", () => {
  /** A console of its own on a fresh database whose only user is the bootstrap admin: the shared one has several admins. */
  let lone: ReturnType<typeof startProcess> | undefined;
  let loneUrl = "";
  let dataDir = "";
  const bootstrap = { email: "only-admin@e2e.test", password: "only-admin-password", name: "Administrator" };

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    const port = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    loneUrl = `http://127.0.0.1:${port}`;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "console-e2e-lone-"));
    lone = startProcess("lone console", path.resolve("node_modules/.bin/next"), ["start", "-H", "127.0.0.1", "-p", String(port)], {
      ...process.env,
      NODE_ENV: "production",
      NEXTAUTH_URL: loneUrl,
      // The browser connects straight to this console, through no proxy (lib/env.ts asks for the choice).
      CONSOLE_TRUSTED_PROXY_HOPS: "0",
      NEXTAUTH_SECRET: crypto.randomBytes(32).toString("base64"),
      CONSOLE_ENCRYPTION_KEY: crypto.randomBytes(32).toString("base64"),
      CONSOLE_DATA_DIR: dataDir,
      DATABASE_URL: "",
      CONSOLE_BOOTSTRAP_ADMIN_EMAIL: bootstrap.email,
      CONSOLE_BOOTSTRAP_ADMIN_PASSWORD: bootstrap.password,
    });
    await waitForUrl(`${loneUrl}/api/health`, 90_000, lone);
  });
  test.afterAll(() => {
    stopProcess(lone);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("cannot be demoted, not even by themselves; a disabled admin does not count", async ({ browser }) => {
    const context = await browser.newContext({ baseURL: loneUrl });
    const page = await context.newPage();
    await fillSignIn(page, bootstrap);
    await expect(page.getByTestId("current-user")).toHaveText(bootstrap.name);
    const refusal = "Administrator is the last enabled admin. Make someone else an admin first, so that the console keeps one.";

    let dialog = await manage(page, bootstrap.name);
    await expect(dialog.getByRole("button", { name: "Disable" })).toHaveCount(0);
    await dialog.getByRole("button", { name: "Make support" }).click();
    await expect(dialog).toContainText("You lose admin access");
    await dialog.getByRole("button", { name: "Make support" }).click();
    await expect(dialog.getByRole("alert")).toHaveText(refusal);
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await page.reload();
    await expect(member(page, bootstrap.name)).toContainText("admin");

    // A second admin who is then disabled leaves the first the last enabled one.
    await page.getByRole("button", { name: "Add a user" }).click();
    dialog = page.getByRole("dialog");
    await dialog.getByLabel("Email").fill("backup-admin@e2e.test");
    await dialog.getByLabel("Name").fill("Bea Backup");
    await dialog.getByLabel("Role").selectOption("admin");
    await dialog.getByRole("button", { name: "Add user" }).click();
    await dialog.getByRole("button", { name: "Done" }).click();
    dialog = await manage(page, "Bea Backup");
    await dialog.getByRole("button", { name: "Disable" }).click();
    await dialog.getByRole("button", { name: "Disable" }).click();
    await expect(member(page, "Bea Backup")).toContainText("Disabled");

    dialog = await manage(page, bootstrap.name);
    await dialog.getByRole("button", { name: "Make support" }).click();
    await dialog.getByRole("button", { name: "Make support" }).click();
    await expect(dialog.getByRole("alert")).toHaveText(refusal);
    await context.close();
  });
});
