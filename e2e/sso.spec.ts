import { expect, test, type Page } from "@playwright/test";

import type { OidcUser } from "../tooling/oidc-users";
import { fillSignIn } from "./support/auth";
import { expectNoSeriousA11yViolations, sidewaysOverflow } from "./support/axe";
import { e2eEnv, e2eUsers } from "./support/env";
import { e2eLinkerLocalAccount, e2eOidc, e2eOidcUsers, signInAtProvider, startSsoSignIn } from "./support/oidc";

/**
 * Single sign-on through a real OpenID Connect provider (tooling/oidc-provider.ts, started by
 * global-setup) with the console's next-auth configuration: nothing here is mocked.
 */

const mainNav = (page: Page) => page.getByRole("navigation", { name: "Main", exact: true });

async function sessionOf(page: Page) {
  return (await page.request.get("/api/auth/session")).json();
}

async function signInThroughSso(page: Page, person: OidcUser) {
  await startSsoSignIn(page, person);
  await expect(page.getByTestId("current-user")).toHaveText(person.name);
}

test("an admin-group member signs in through single sign-on and gets the admin navigation", async ({ page }) => {
  await startSsoSignIn(page, e2eOidcUsers.admin, "/sign-in?callbackUrl=%2Fconnections");
  await expect(page).toHaveURL(`${e2eEnv.consoleUrl}/connections`);
  await expect(page.getByTestId("current-user")).toHaveText(e2eOidcUsers.admin.name);
  for (const section of ["Overview", "Connections", "Email OTP", "Audit"]) {
    await expect(mainNav(page).getByRole("link", { name: section, exact: true })).toBeVisible();
  }
  expect(await sessionOf(page)).toMatchObject({
    user: { email: e2eOidcUsers.admin.email, name: e2eOidcUsers.admin.name, role: "admin" },
  });
});

test("a support-group member gets the support navigation only", async ({ page }) => {
  await signInThroughSso(page, e2eOidcUsers.support);
  await expect(mainNav(page).getByRole("link", { name: "Webhooks", exact: true })).toBeVisible();
  for (const section of ["Connections", "Email OTP", "Audit"]) {
    await expect(mainNav(page).getByRole("link", { name: section, exact: true })).toHaveCount(0);
  }
  expect((await page.goto("/connections"))?.status()).toBe(403);
  expect(await sessionOf(page)).toMatchObject({ user: { role: "support" } });
});

const refusals = [
  {
    person: e2eOidcUsers.noGroup,
    reason: "no_role",
    title: "Your account has no role in this console",
    advice: "add you to the right group",
  },
  {
    person: e2eOidcUsers.unverified,
    reason: "email_unverified",
    title: "Your email address is not verified",
    advice: "Verify your email address",
  },
  {
    person: e2eOidcUsers.outsider,
    reason: "domain_not_allowed",
    title: "Your email domain is not allowed here",
    advice: "Sign in with your work account",
  },
  {
    person: e2eOidcUsers.leaver,
    reason: "disabled",
    title: "Your console account is disabled",
    advice: "Ask a console administrator to enable your account",
  },
  {
    person: e2eOidcUsers.impostor,
    reason: "link_requires_password",
    title: "This email already has a console account",
    advice: `Sign in with its password, then use Sign in with ${e2eOidc.providerName} to link it.`,
  },
] as const;

for (const { person, reason, title, advice } of refusals) {
  test(`single sign-on is refused with a page that says why: ${reason}`, async ({ page }) => {
    await startSsoSignIn(page, person);
    await expect(page).toHaveURL(`${e2eEnv.consoleUrl}/sign-in/refused?reason=${reason}`);
    await expect(page.getByRole("heading", { name: title })).toBeVisible();
    await expect(page.getByText(advice)).toBeVisible();
    // Who was refused is never in the address (or a proxy's log).
    expect(page.url()).not.toContain("@");
    expect(await sessionOf(page)).toEqual({});
    await page.goto("/");
    await expect(page).toHaveURL(/\/sign-in$/);
  });
}

test("an identity with the email of the password admin is not linked to the admin, who stays admin", async ({
  page,
}) => {
  await startSsoSignIn(page, e2eOidcUsers.impostor);
  await expect(page).toHaveURL(`${e2eEnv.consoleUrl}/sign-in/refused?reason=link_requires_password`);
  await fillSignIn(page, e2eUsers.admin);
  await expect(page.getByTestId("current-user")).toHaveText(e2eUsers.admin.name);
  expect(await sessionOf(page)).toMatchObject({ user: { email: e2eUsers.admin.email, role: "admin" } });
});

test("a password user links single sign-on by signing in with the password first, from the refusal page", async ({
  page,
}) => {
  const { linker } = e2eOidcUsers;
  await startSsoSignIn(page, linker);
  await expect(page).toHaveURL(`${e2eEnv.consoleUrl}/sign-in/refused?reason=link_requires_password`);
  await page.getByRole("link", { name: "Sign in with its password" }).click();
  await expect(page).toHaveURL(`${e2eEnv.consoleUrl}/sign-in?callbackUrl=%2Flink-sso`);
  await page.getByLabel("Email").fill(linker.email);
  await page.getByLabel("Password").fill(e2eLinkerLocalAccount.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(`${e2eEnv.consoleUrl}/link-sso`);
  await expect(page.getByRole("heading", { name: `Link ${e2eOidc.providerName}` })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await signInAtProvider(page, linker);
  // Linked: the provider's name replaces the local one.
  await expect(page.getByTestId("current-user")).toHaveText(linker.name);
  expect(await sessionOf(page)).toMatchObject({ user: { email: linker.email, name: linker.name, role: "support" } });

  // From now on single sign-on alone signs this person in.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await signInThroughSso(page, linker);
});

test("the refusal page passes axe on a desktop and a phone, and leads back to sign-in", async ({ page }) => {
  await page.goto("/sign-in/refused?reason=no_role");
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSeriousA11yViolations(page);
  expect(await sidewaysOverflow(page, { tables: false })).toEqual([]);
  // A reason the page does not know gets the general words, never the text from the address.
  await page.goto("/sign-in/refused?reason=<script>");
  await expect(page.getByRole("heading", { name: "Single sign-on was refused" })).toBeVisible();
  await page.getByRole("link", { name: "Back to sign-in" }).click();
  await expect(page.getByRole("button", { name: `Sign in with ${e2eOidc.providerName}` })).toBeVisible();
});

test("an answer from the provider with a tampered state is refused with a clear message", async ({ page }) => {
  // The state the console sent is changed on its way to the provider, which hands it back as it got it.
  let tampered = false;
  await page.route(
    (url) => url.origin === e2eEnv.oidcUrl && url.pathname === "/auth" && url.searchParams.has("state"),
    (route) => {
      if (tampered) return route.continue();
      tampered = true;
      const url = new URL(route.request().url());
      url.searchParams.set("state", `${url.searchParams.get("state")}x`);
      return route.fulfill({ status: 302, headers: { location: url.toString() } });
    },
  );
  await startSsoSignIn(page, e2eOidcUsers.admin);
  await expect(page).toHaveURL(/\/sign-in\?.*error=OAuthCallback/);
  expect(tampered).toBe(true);
  await expect(page.locator("#sign-in-error")).toContainText("could not be verified");
  expect(await sessionOf(page)).toEqual({});
});

test("signing out ends the single sign-on session", async ({ page }) => {
  await signInThroughSso(page, e2eOidcUsers.admin);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  expect(await sessionOf(page)).toEqual({});
  await page.goto("/connections");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fconnections$/);
});

test("the audit log records single sign-ons and refusals, with the reason", async ({ page }) => {
  await startSsoSignIn(page, e2eOidcUsers.noGroup);
  await expect(page).toHaveURL(/\/sign-in\/refused/);
  await signInThroughSso(page, e2eOidcUsers.admin);

  const rows = page.getByRole("table", { name: "Audit records, newest first" }).locator("tbody tr");
  await page.goto("/audit?action=sign_in.sso");
  await expect(rows.filter({ hasText: e2eOidcUsers.admin.email }).first()).toBeVisible();
  await page.goto("/audit?action=sign_in.sso_refused");
  await expect(rows.filter({ hasText: e2eOidcUsers.noGroup.email }).first()).toBeVisible();
  await expect(rows.filter({ hasText: e2eOidcUsers.leaver.email }).first()).toBeVisible();
});

test.describe("a provider that does not answer", () => {
  const setHang = (page: Page, hang: boolean) => page.request.post(`${e2eEnv.oidcUrl}/_faults`, { data: { hang } });
  test.afterEach(async ({ page }) => {
    await setHang(page, false);
  });

  test("the sign-in page says so within 10 s and the password form still works", async ({ page }) => {
    test.setTimeout(60_000);
    await page.goto("/sign-in");
    await setHang(page, true);
    const started = Date.now();
    await page.getByRole("button", { name: `Sign in with ${e2eOidc.providerName}` }).click();
    await expect(page.locator("#sign-in-error")).toContainText(`${e2eOidc.providerName} did not answer in time`, {
      timeout: 10_000,
    });
    await expect(page.locator("#sso-provider-note")).toContainText(
      `${e2eOidc.providerName} is not answering right now`,
      {
        timeout: Math.max(1, 10_000 - (Date.now() - started)),
      },
    );
    await expect(page.getByLabel("Email")).toBeVisible();
  });
});
