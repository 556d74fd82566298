import { expect, test } from "@playwright/test";
import { loadSeedFile } from "../emulator/seed";
import { signIn } from "./support/auth";
import { e2eUsers } from "./support/env";

const seed = loadSeedFile("emulator/seeds/demo.json");
const globex = seed.tenants.find((t) => t.name === "Globex")!;

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

  test("a key saved in the wrong region gets the region hint, then saves in the right one; delete needs the typed name", async ({ page }) => {
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
    await expect(page.getByRole("heading", { name })).toBeVisible();
    await expect(page.getByText("EU (Ireland)").first()).toBeVisible();
    await expect(page.getByText("verified", { exact: true }).first()).toBeVisible();
    // Write-only: the key field is empty and only the last four characters are shown.
    await expect(page.getByLabel("Management API secret key")).toHaveValue("");
    await expect(page.getByText(`…${globex.managementKey.slice(-4)}`).first()).toBeVisible();

    // Regenerating the webhook URL (typed confirmation) refuses the old URL at once.
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
