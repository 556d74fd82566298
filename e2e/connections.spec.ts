import { expect, test } from "@playwright/test";

import { loadSeedFile } from "../emulator/seed";
import { signIn } from "./support/auth";
import { expectNoSeriousA11yViolations, sidewaysOverflow } from "./support/axe";
import { e2eUsers } from "./support/env";

const seed = loadSeedFile("emulator/seeds/demo.json");
const globex = seed.tenants.find((t) => t.name === "Globex")!;
const acme = seed.tenants.find((t) => t.name === "Acme")!;

test.describe("connections (admin)", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, e2eUsers.admin);
  });

  test("the seeded connections are listed with fingerprints only", async ({ page }) => {
    await page.goto("/connections");
    const table = page.getByRole("table", { name: "Connections" });
    for (const tenant of seed.tenants) {
      const row = table.getByRole("row").filter({ hasText: tenant.name });
      await expect(row).toContainText(`…${tenant.managementKey.slice(-4)}`);
      await expect(row).toContainText("verified");
      await expect(row).not.toContainText(tenant.managementKey);
    }
  });

  test("a key saved in the wrong region gets the region hint, then saves in the right one; delete needs the typed name", async ({
    page,
  }) => {
    const name = `Globex copy ${Date.now()}`;
    await page.goto("/connections/new");
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Region").selectOption("us");
    await page.getByLabel("Management API secret key").fill(globex.managementKey);
    await page.getByRole("button", { name: "Add connection" }).click();
    await expect(page.getByText("This key belongs to the EU region, not US.")).toBeVisible();
    await expect(page).toHaveURL(/\/connections\/new$/);

    await page.getByRole("button", { name: "Use EU (Ireland)" }).click();
    await expect(page.getByLabel("Region")).toHaveValue("eu");
    await page.getByRole("button", { name: "Add connection" }).click();
    // The same key in the same region is the tenant Globex already connects to: said, and asked for once more.
    await expect(page.getByText("Globex already connects to this tenant with this management key")).toBeVisible();
    await expect(page).toHaveURL(/\/connections\/new$/);
    await page.getByRole("button", { name: "Add a second connection anyway" }).click();
    await expect(page.getByRole("heading", { name })).toBeVisible();
    await expect(page.getByText("EU (Ireland)").first()).toBeVisible();
    await expect(page.getByText("verified", { exact: true }).first()).toBeVisible();
    // Write-only: the key field is empty and only the last four characters are shown.
    await expect(page.getByLabel("Management API secret key")).toHaveValue("");
    await expect(page.getByText(`…${globex.managementKey.slice(-4)}`).first()).toBeVisible();

    // Regenerating the webhook URL (typed confirmation, on the Webhooks tab) refuses the old URL at once.
    await page.getByRole("tab", { name: "Webhooks" }).click();
    const webhookUrl = page.getByTestId("webhook-url");
    const oldUrl = await webhookUrl.inputValue();
    await page.getByRole("button", { name: "Regenerate" }).click();
    const regenerate = page.getByRole("dialog", { name: "Regenerate the webhook URL?" });
    await regenerate.getByLabel(`Type ${name} to confirm`).fill(name);
    await regenerate.getByRole("button", { name: "Regenerate URL" }).click();
    await expect(regenerate).toBeHidden();
    await expect(webhookUrl).not.toHaveValue(oldUrl);
    const newUrl = await webhookUrl.inputValue();
    expect(newUrl).toMatch(/\/api\/webhooks\/[A-Za-z0-9_-]{32}$/);
    const post = (url: string) => page.request.post(url, { data: {}, headers: { "content-type": "application/json" } });
    expect((await post(oldUrl)).status()).toBe(404);
    expect((await post(newUrl)).status()).toBe(400);

    await page.getByRole("tab", { name: "Settings" }).click();
    await page.getByRole("button", { name: "Delete connection" }).click();
    const dialog = page.getByRole("dialog", { name: `Delete ${name}?` });
    const confirm = dialog.getByRole("button", { name: "Delete connection" });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel(`Type ${name} to confirm`).fill(name.toLowerCase());
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel(`Type ${name} to confirm`).fill(name);
    await expect(confirm).toBeEnabled();
    await confirm.click();
    await expect(page).toHaveURL(/\/connections$/);
    await expect(page.getByRole("table", { name: "Connections" })).not.toContainText(name);
  });

  test("an invalid key is refused with a message on the key field", async ({ page }) => {
    await page.goto("/connections/new");
    await page.getByLabel("Name").fill("Nobody");
    await page.getByLabel("Management API secret key").fill("not_a_key_any_region_knows");
    await page.getByRole("button", { name: "Add connection" }).click();
    await expect(page.getByText("No region accepts this management key.").first()).toBeVisible();
  });

  test("a management key another connection already uses is named and needs a confirmation, on create and on edit", async ({
    page,
  }) => {
    const name = `Acme twin ${Date.now()}`;
    await page.goto("/connections/new");
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Region").selectOption("us");
    await page.getByLabel("Management API secret key").fill(acme.managementKey);
    await page.getByRole("button", { name: "Add connection" }).click();
    const warning = page
      .getByRole("status")
      .filter({ hasText: "Acme already connects to this tenant with this management key" });
    await expect(warning).toBeVisible();
    await expect(warning.getByRole("link", { name: "Open Acme" })).toHaveAttribute(
      "href",
      /\/connections\/[0-9a-f-]{36}$/,
    );
    await expect(page).toHaveURL(/\/connections\/new$/);
    // Nothing was saved.
    await page.goto("/connections");
    await expect(page.getByRole("table", { name: "Connections" })).not.toContainText(name);
    expect(await page.content()).not.toContain(acme.managementKey);

    // Editing Globex to hold Acme's key (and region) is stopped the same way.
    await page.getByRole("table", { name: "Connections" }).getByRole("link", { name: "Globex", exact: true }).click();
    await page.getByLabel("Region").selectOption("us");
    await page.getByLabel("Management API secret key").fill(acme.managementKey);
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Acme already connects to this tenant with this management key")).toBeVisible();
    await page.reload();
    await expect(page.getByText("EU (Ireland)").first()).toBeVisible();
  });

  test("the receiver URL is shown in full, on a wide screen and on a phone", async ({ page }) => {
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto("/connections");
      await page.getByRole("link", { name: "Acme", exact: true }).filter({ visible: true }).first().click();
      await page.getByRole("tab", { name: "Webhooks" }).click();
      const field = page.getByTestId("webhook-url");
      await expect(field).toHaveValue(/\/api\/webhooks\//);
      const box = await field.evaluate((el) => ({
        sw: el.scrollWidth,
        cw: el.clientWidth,
        sh: el.scrollHeight,
        ch: el.clientHeight,
      }));
      expect(box.sw, `${viewport.width} px: the URL is cut off sideways`).toBeLessThanOrEqual(box.cw);
      expect(box.sh, `${viewport.width} px: the URL is cut off below`).toBeLessThanOrEqual(box.ch + 1);
      await expect(page.getByRole("button", { name: "Copy URL" })).toBeVisible();
      expect(await sidewaysOverflow(page, { tables: false })).toEqual([]);
    }
  });

  test("on a phone the connections are a list with nothing scrolling sideways", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/connections");
    const list = page.getByRole("list", { name: "Connections" });
    for (const tenant of seed.tenants) {
      const item = list.getByRole("listitem").filter({ hasText: tenant.name });
      await expect(item).toContainText(`…${tenant.managementKey.slice(-4)}`);
      await expect(item).toContainText("verified");
    }
    expect(await sidewaysOverflow(page, { tables: true })).toEqual([]);
    // From 1024 px it is the table, which fits beside the side navigation.
    await page.setViewportSize({ width: 1024, height: 768 });
    await expect(page.getByRole("table", { name: "Connections" })).toBeVisible();
    expect(await sidewaysOverflow(page, { tables: true })).toEqual([]);
  });

  test("the phone menu is a button: it opens, Escape and a click outside close it, a link navigates and closes it", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/connections");
    const button = page.getByRole("button", { name: "Menu" });
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await button.click();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    const panel = page.locator(`#${await button.getAttribute("aria-controls")}`);
    await expect(panel).toBeVisible();
    await expect(panel.getByRole("link", { name: "Users" })).toBeVisible();
    await expect(panel).toContainText("Signed in as Ada Admin");
    await expectNoSeriousA11yViolations(page, "phone menu open");

    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(button).toBeFocused();

    await button.click();
    await expect(panel).toBeVisible();
    // A tap outside the panel (below it, on the page).
    await page.mouse.click(370, 800);
    await expect(panel).toBeHidden();

    await button.click();
    await panel.getByRole("link", { name: "Users" }).click();
    await expect(page).toHaveURL(/\/users$/);
    await expect(panel).toBeHidden();
    await expect(button).toHaveAttribute("aria-expanded", "false");
    expect(await sidewaysOverflow(page, { tables: false })).toEqual([]);
  });

  test("the switcher changes the connection feature pages use and remembers it", async ({ page }) => {
    await page.goto("/data-points");
    await expect(page.getByText("Custom data points of Acme.")).toBeVisible();
    await page.getByLabel("Connection", { exact: true }).selectOption({ label: "Globex (EU)" });
    await expect(page.getByText("Custom data points of Globex.")).toBeVisible();
    await page.goto("/email-otp");
    await expect(page.getByText(/of Globex, region EU \(Ireland\)/)).toBeVisible();
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === "console_connection")?.httpOnly).toBe(true);
    await page.getByLabel("Connection", { exact: true }).selectOption({ label: "Acme (US)" });
    await expect(page.getByText(/of Acme, region US \(Oregon\)/)).toBeVisible();
  });
});

test("support sees no connection admin and gets 403 on its pages", async ({ page }) => {
  await signIn(page, e2eUsers.support);
  for (const path of ["/connections", "/connections/new"]) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(403);
  }
  await page.goto("/data-points");
  await expect(page.getByRole("link", { name: "Add a connection" })).toHaveCount(0);
});
