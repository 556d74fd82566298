import { expect, test, type Page } from "@playwright/test";

import { fillSignIn, signIn } from "./support/auth";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { e2eUsers } from "./support/env";

/**
 * Failed sign-ins are throttled per address; each test that fails on purpose comes from its own
 * documentation-range address. The e2e console trusts one proxy (CONSOLE_TRUSTED_PROXY_HOPS=1), so it
 * reads the right-most X-Forwarded-For entry, which these headers play the part of.
 */
function fromAddress(ip: string) {
  test.use({ extraHTTPHeaders: { "x-forwarded-for": ip } });
}

const TOO_MANY = /^Too many failed sign-in attempts from this address\. Try again in 1[45] minutes\.$/;

/** The form-level failure (Next's route announcer is also role="alert", so find ours by id). */
const failureMessage = (page: Page) => page.locator("#sign-in-failure");

test.describe("signed out", () => {
  test("a visitor is sent to sign-in and comes back to the page asked for", async ({ page }) => {
    await page.goto("/webhooks?userId=abc");
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fwebhooks%3FuserId%3Dabc$/);
    await expect(page.getByRole("heading", { name: "Sign in to Tenant Console" })).toBeVisible();
    await page.getByLabel("Email").fill(e2eUsers.support.email);
    await page.getByLabel("Password").fill(e2eUsers.support.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/webhooks\?userId=abc$/);
  });

  test("an off-site callback is ignored", async ({ page, baseURL }) => {
    await page.goto("/sign-in?callbackUrl=//evil.example/steal");
    await page.getByLabel("Email").fill(e2eUsers.support.email);
    await page.getByLabel("Password").fill(e2eUsers.support.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByTestId("current-user")).toBeVisible();
    expect(new URL(page.url()).host).toBe(new URL(baseURL!).host);
    expect(page.url()).not.toContain("evil.example");
  });

  test("the sign-in page has no serious accessibility violations", async ({ page }) => {
    await page.goto("/sign-in");
    await expectNoSeriousA11yViolations(page);
  });

  test("the sign-in page sends the security headers", async ({ page }) => {
    const response = await page.goto("/sign-in");
    const headers = response!.headers();
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["content-security-policy"]).not.toContain("unsafe-eval");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("no-referrer");
  });
});

test.describe("bad input", () => {
  fromAddress("203.0.113.10");

  test("empty fields get messages on the form and nothing is sent", async ({ page }) => {
    await page.goto("/sign-in");
    let posted = false;
    page.on("request", (r) => {
      if (r.url().includes("/api/auth/callback")) posted = true;
    });
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByText("Enter your email address.")).toBeVisible();
    await expect(page.getByText("Enter your password.")).toBeVisible();
    expect(posted).toBe(false);
  });

  test("a wrong password and an unknown email get the same clear message", async ({ page }) => {
    await fillSignIn(page, { email: e2eUsers.admin.email, password: "not-the-password" });
    await expect(failureMessage(page)).toHaveText("Email or password is incorrect.");
    await fillSignIn(page, { email: "nobody@e2e.test", password: "whatever-password" });
    await expect(failureMessage(page)).toHaveText("Email or password is incorrect.");
    await expect(page).toHaveURL(/\/sign-in/);
  });

  test("a 10 KB email and script-ish input are refused without a stack trace", async ({ page }) => {
    await fillSignIn(page, { email: `${"a".repeat(10_240)}@e2e.test`, password: "x" });
    await expect(page.getByText("An email address has at most 320 characters.")).toBeVisible();
    await fillSignIn(page, { email: "x@e2e.test' OR '1'='1", password: "<script>alert(1)</script>" });
    await expect(page.getByText("Enter a valid email address.")).toBeVisible();
    await expect(page.locator("body")).not.toContainText(/at \w+ \(|Error:/);
  });
});

test.describe("disabled account", () => {
  fromAddress("203.0.113.20");
  test("is refused at sign-in", async ({ page }) => {
    await fillSignIn(page, e2eUsers.disabled);
    await expect(failureMessage(page)).toContainText("This account is disabled");
  });
});

test.describe("throttling", () => {
  fromAddress("203.0.113.30");
  test("five failures refuse that address for that email, with a clear message; other addresses may still sign in", async ({
    page,
    browser,
  }) => {
    test.slow(); // several sign-ins, each an argon2 hash
    for (let i = 0; i < 5; i++) {
      await fillSignIn(page, { email: e2eUsers.throttled.email, password: `wrong-${i}` });
      await expect(failureMessage(page)).toHaveText("Email or password is incorrect.");
    }
    // Refused before any password check: HTTP 429 with the time to come back, and the form says so.
    const refusal = page.waitForResponse(
      (response) => new URL(response.url()).pathname === "/api/auth/callback/credentials",
    );
    await fillSignIn(page, e2eUsers.throttled);
    const refused = await refusal;
    expect(refused.status()).toBe(429);
    expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(13 * 60);
    await expect(failureMessage(page)).toHaveText(TOO_MANY);

    // The right-most entry is the address: one invented further left changes nothing…
    const spoofing = await browser.newContext({
      extraHTTPHeaders: { "x-forwarded-for": "198.51.100.77, 203.0.113.30" },
    });
    const spoofed = await spoofing.newPage();
    await fillSignIn(spoofed, e2eUsers.throttled);
    await expect(failureMessage(spoofed)).toHaveText(TOO_MANY);
    await spoofing.close();

    // …and another address is keyed apart: the user is not locked out, and that browser gets its device cookie.
    const elsewhere = await browser.newContext({
      extraHTTPHeaders: { "x-forwarded-for": "203.0.113.30, 203.0.113.31" },
    });
    const signedIn = await elsewhere.newPage();
    await fillSignIn(signedIn, e2eUsers.throttled);
    await expect(signedIn.getByTestId("current-user")).toHaveText(e2eUsers.throttled.name);
    expect(await elsewhere.cookies()).toContainEqual(
      expect.objectContaining({
        name: "console.device",
        path: "/api/auth/callback/credentials",
        httpOnly: true,
        sameSite: "Strict",
      }),
    );
    await elsewhere.close();
  });
});

test.describe("signed in", () => {
  test("an admin sees every section and can sign out", async ({ page }) => {
    await signIn(page, e2eUsers.admin);
    const nav = page.getByRole("navigation", { name: "Main", exact: true });
    for (const label of ["Overview", "Connections", "Data points", "Email OTP", "Webhooks", "Users", "Audit"]) {
      await expect(nav.getByRole("link", { name: label, exact: true })).toBeVisible();
    }
    await expect(page.getByText("admin", { exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await page.goto("/connections");
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fconnections/);
  });

  test("support sees only what support may use and is refused on admin routes", async ({ page }) => {
    await signIn(page, e2eUsers.support);
    const nav = page.getByRole("navigation", { name: "Main", exact: true });
    for (const label of ["Overview", "Data points", "Webhooks", "Users"]) {
      await expect(nav.getByRole("link", { name: label, exact: true })).toBeVisible();
    }
    for (const label of ["Connections", "Email OTP", "Audit"]) {
      await expect(nav.getByRole("link", { name: label, exact: true })).toHaveCount(0);
    }
    for (const path of ["/connections", "/email-otp", "/audit"]) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(403);
      await expect(page.getByRole("heading", { name: "You do not have access to this page" })).toBeVisible();
    }
  });

  test("signed-in pages are not cached and the shell is accessible", async ({ page }) => {
    await signIn(page, e2eUsers.admin);
    const response = await page.goto("/");
    expect(response?.headers()["cache-control"]).toContain("no-store");
    await expectNoSeriousA11yViolations(page);
  });
});
