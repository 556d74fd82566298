import { expect, test, type Page } from "@playwright/test";

import { signIn, waitForHydration } from "./support/auth";
import { sidewaysOverflow } from "./support/axe";
import { e2eEnv, e2eUsers } from "./support/env";

/** The user_authenticators.viewed rows of the audit log, read in a tab of their own: one per lookup. */
async function lookupAuditRows(page: Page): Promise<number> {
  const audit = await page.context().newPage();
  // Every connection's records, whichever the header's switcher points at.
  await audit.goto("/audit?action=user_authenticators.viewed&connectionId=all");
  await expect(audit.getByRole("heading", { name: "Audit", exact: true })).toBeVisible();
  const table = audit.getByRole("table", { name: "Audit records, newest first" });
  const empty = audit.getByText("No audit records match");
  await expect(table.or(empty)).toBeVisible();
  const count = await table.locator("tbody tr").count();
  await audit.close();
  return count;
}

/** Picks a connection in the header and waits until the page (and any refresh it causes) has settled. */
async function switchConnection(page: Page, label: string, name: string) {
  await page.getByLabel("Connection", { exact: true }).selectOption({ label });
  await expect(page.getByLabel(`User id in ${name}`)).toBeVisible();
  await expect(page.getByLabel("Connection", { exact: true })).toBeEnabled();
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(1000);
}

const ACME_TENANT_ID = "3f6c2a1e-8b4d-4c7a-9e21-5d0f7a9b1c01";

test.describe("user authenticators", () => {
  test("support looks a user up through the server and client APIs and sees masked addresses", async ({ page }) => {
    await signIn(page, e2eUsers.support);
    await page.getByRole("navigation", { name: "Main", exact: true }).getByRole("link", { name: "Users" }).click();
    await page.getByLabel(/User id in/).fill("usr_dieter");
    await page.getByRole("button", { name: "Look up" }).click();
    // The form names the connection it was asked in, so the lookup runs in that one only.
    await expect(page).toHaveURL(/\/users\?userId=usr_dieter&connection=[0-9a-f-]{36}$/);
    // The switcher defaults to the first connection by name: Acme, where usr_dieter does not exist.
    await expect(page.getByRole("heading", { name: "No current authenticators for “usr_dieter”" })).toBeVisible();

    const added = await fetch(
      `${e2eEnv.emulatorUrl}/_emulator/tenants/${ACME_TENANT_ID}/users/usr_lookup_e2e/authenticators`,
      {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          userAuthenticatorId: "ua_lookup_e2e_sms",
          verificationMethod: "SMS",
          createdAt: new Date().toISOString(),
          expiresAt: null,
          phoneNumber: "+15550001234",
        }),
      },
    );
    expect(added.status).toBe(201);
    await page.goto("/users?userId=usr_lookup_e2e&lookup=1");
    const table = page.getByRole("table", { name: "Current authenticators of usr_lookup_e2e" });
    await expect(table.locator("tbody tr")).toHaveCount(1);
    await expect(table).toContainText("SMS");
    await expect(table).toContainText("ua_lookup_e2e_sms");
    await expect(table).toContainText(/\+•+1234/);
    await expect(table).not.toContainText("+15550001234");
  });

  test("an empty or over-long user id gets a message and no lookup", async ({ page }) => {
    await signIn(page, e2eUsers.support, `/users?userId=${"x".repeat(300)}`);
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

  test("a connection switch never re-runs a lookup: it runs only when asked, in the connection it was asked in", async ({
    page,
  }) => {
    await signIn(page, e2eUsers.admin, "/users");
    const switcher = page.getByLabel("Connection", { exact: true });
    if ((await switcher.locator("option:checked").textContent()) !== "Acme (US)")
      await switchConnection(page, "Acme (US)", "Acme");

    await page.getByLabel("User id in Acme").fill("usr_bob");
    await page.getByRole("button", { name: "Look up" }).click();
    await expect(
      page
        .getByRole("table", { name: "Current authenticators of usr_bob" })
        .or(page.getByText("No current authenticators for “usr_bob”")),
    ).toBeVisible();
    const before = await lookupAuditRows(page);
    expect(before).toBeGreaterThan(0);

    // Two switches (to Globex and back): neither the action's re-render nor the refresh looks anything up.
    await switchConnection(page, "Globex (EU)", "Globex");
    expect(await lookupAuditRows(page)).toBe(before);
    await expect(page.getByText("Press Look up to read the authenticators of “usr_bob” in Globex")).toBeVisible();
    await expect(page.getByLabel("User id in Globex")).toHaveValue("usr_bob");
    await expect(page.getByRole("table")).toHaveCount(0);
    await switchConnection(page, "Acme (US)", "Acme");
    expect(await lookupAuditRows(page)).toBe(before);
    await expect(page.getByText("Press Look up to read the authenticators of “usr_bob” in Acme")).toBeVisible();

    // Pressing Look up is what runs it: exactly one more record.
    await page.getByRole("button", { name: "Look up" }).click();
    await expect(
      page
        .getByRole("table", { name: "Current authenticators of usr_bob" })
        .or(page.getByText("No current authenticators for “usr_bob”")),
    ).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(await lookupAuditRows(page)).toBe(before + 1);
  });

  test("lookup=1 from inside the console (the webhook log's link) looks up once, and a switch after it does not", async ({
    page,
  }) => {
    await signIn(page, e2eUsers.admin, "/users");
    const switcher = page.getByLabel("Connection", { exact: true });
    if ((await switcher.locator("option:checked").textContent()) !== "Acme (US)")
      await switchConnection(page, "Acme (US)", "Acme");
    const before = await lookupAuditRows(page);

    // A same-origin link inside the console, as the webhook log's drawer has.
    await waitForHydration(page);
    await page.evaluate(() => {
      const a = document.createElement("a");
      a.href = "/users?userId=usr_bob&lookup=1";
      a.textContent = "inside link";
      document.querySelector("main")!.append(a);
    });
    await page.getByRole("link", { name: "inside link" }).click();
    await expect(page).toHaveURL(/lookup=1/);
    await expect(
      page
        .getByRole("table", { name: "Current authenticators of usr_bob" })
        .or(page.getByText("No current authenticators for “usr_bob”")),
    ).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(await lookupAuditRows(page)).toBe(before + 1);

    await switchConnection(page, "Globex (EU)", "Globex");
    await expect(page).not.toHaveURL(/lookup=1/);
    expect(await lookupAuditRows(page)).toBe(before + 1);
    await switchConnection(page, "Acme (US)", "Acme");
    expect(await lookupAuditRows(page)).toBe(before + 1);
  });

  test("the Look up button lines up with its input, wide and on a phone (axe: e2e/accessibility.spec.ts)", async ({
    page,
  }) => {
    await signIn(page, e2eUsers.support);
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 1024, height: 768 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto("/users?userId=usr_bob&lookup=1");
      await expect(page.locator("[aria-busy=true]")).toHaveCount(0, { timeout: 15_000 });
      const input = (await page.getByLabel(/User id in/).boundingBox())!;
      const button = (await page.getByRole("button", { name: "Look up" }).boundingBox())!;
      if (viewport.width >= 640) {
        expect(Math.abs(button.y - input.y), `${viewport.width} px: button top vs input top`).toBeLessThanOrEqual(1);
        expect(Math.abs(button.height - input.height), "button and input heights").toBeLessThanOrEqual(2);
      }
      expect(await sidewaysOverflow(page, { tables: true })).toEqual([]);
    }
  });
});
