import { expect, test } from "@playwright/test";
import { signIn } from "./support/auth";
import { e2eEnv, e2eUsers } from "./support/env";

const ACME_TENANT_ID = "3f6c2a1e-8b4d-4c7a-9e21-5d0f7a9b1c01";

test.describe("user authenticators", () => {
  test("support looks a user up through the server and client APIs and sees masked addresses", async ({ page }) => {
    await signIn(page, e2eUsers.support);
    await page.getByRole("navigation", { name: "Main", exact: true }).getByRole("link", { name: "Users" }).click();
    await page.getByLabel(/User id in/).fill("usr_dieter");
    await page.getByRole("button", { name: "Look up" }).click();
    await expect(page).toHaveURL(/\/users\?userId=usr_dieter$/);
    // The switcher defaults to the first connection by name: Acme, where usr_dieter does not exist.
    await expect(page.getByRole("heading", { name: "No current authenticators for “usr_dieter”" })).toBeVisible();

    const added = await fetch(`${e2eEnv.emulatorUrl}/_emulator/tenants/${ACME_TENANT_ID}/users/usr_lookup_e2e/authenticators`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        userAuthenticatorId: "ua_lookup_e2e_sms",
        verificationMethod: "SMS",
        createdAt: new Date().toISOString(),
        expiresAt: null,
        phoneNumber: "+15550001234",
      }),
    });
    expect(added.status).toBe(201);
    await page.goto("/users?userId=usr_lookup_e2e");
    const table = page.getByRole("table", { name: "Current authenticators of usr_lookup_e2e" });
    await expect(table.locator("tbody tr")).toHaveCount(1);
    await expect(table).toContainText("SMS");
    await expect(table).toContainText("ua_lookup_e2e_sms");
    await expect(table).toContainText(/\+•+1234/);
    await expect(table).not.toContainText("+15550001234");
  });

  test("an empty or over-long user id gets a message and no lookup", async ({ page }) => {
    await signIn(page, e2eUsers.support);
    await page.goto(`/users?userId=${"x".repeat(300)}`);
    await expect(page.getByText("User ids have at most 255 characters.")).toBeVisible();
    await expect(page.getByRole("table")).toHaveCount(0);
  });

  test("a link from another site fills in the form but looks nothing up until asked", async ({ page, baseURL }) => {
    await signIn(page, e2eUsers.support);
    // A page on another site (served by the test itself) that links into the console.
    await page.route("http://elsewhere.test/**", (route) =>
      route.fulfill({ contentType: "text/html", body: `<a href="${baseURL}/users?userId=usr_alice">look</a>` }),
    );
    await page.goto("http://elsewhere.test/");
    await page.getByRole("link", { name: "look" }).click();
    await expect(page.getByText("Opened from a link")).toBeVisible();
    await expect(page.getByLabel(/User id in/)).toHaveValue("usr_alice");
    await expect(page.getByRole("table")).toHaveCount(0);
    await page.getByRole("button", { name: "Look up" }).click();
    await expect(page.getByRole("table", { name: "Current authenticators of usr_alice" })).toBeVisible();
    await expect(page.getByText("Opened from a link")).toHaveCount(0);
  });
});
