import { expect, type Page } from "@playwright/test";

import { loadSeedFile } from "@/emulator/server";
import { startTenantApp } from "@/tooling/tenant-app";

import { ACME_TENANT } from "./emulator";

/** Acme's own application (tooling/tenant-app.ts) on a free port, verifying with its server keys at /tenants/acme. */
export function startAcmeTenantApp() {
  const acme = loadSeedFile("emulator/seeds/demo.json").tenants.find((tenant) => tenant.id === ACME_TENANT)!;
  return startTenantApp({
    port: 0,
    handlers: [{ path: "/tenants/acme", name: acme.name, serverKeys: acme.serverSecretKeys }],
  });
}

/** Adds a destination through the Destinations page's dialog (the page open). */
export async function addDestination(page: Page, name: string, url: string, signing?: RegExp) {
  await page.getByRole("button", { name: "Add a destination" }).click();
  const form = page.getByRole("form", { name: "Add a destination" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("URL").fill(url);
  if (signing) await form.getByLabel(signing).check();
  await form.getByRole("button", { name: "Add destination" }).click();
}

/** Removes a destination behind its typed confirmation (the Destinations page open). */
export async function removeDestination(page: Page, name: string) {
  await page.getByTestId(`destination-${name}`).getByRole("button", { name: "Remove" }).click();
  const dialog = page.getByRole("dialog", { name: `Remove ${name}` });
  await dialog.getByRole("textbox").fill(name);
  await dialog.getByRole("button", { name: "Remove destination" }).click();
  await expect(page.getByTestId(`destination-${name}`)).toHaveCount(0);
}
