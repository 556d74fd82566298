import crypto from "node:crypto";

import { expect, type APIRequestContext, type Browser } from "@playwright/test";

import { loadSeedFile } from "../../emulator/seed";
import { signIn } from "./auth";
import { e2eUsers } from "./env";

/**
 * A connection of a spec's own (to Globex's tenant, with a server key the service does not sign with), so its
 * refusals and alerts are that spec's alone: the alerts and health specs share it.
 */

const globex = loadSeedFile("emulator/seeds/demo.json").tenants.find((t) => t.name === "Globex")!;

export type RefusingConnection = { id: string; name: string; webhookUrl: string };

async function asAdmin(browser: Browser) {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, e2eUsers.admin);
  return page;
}

/** Adds the connection; every delivery to its URL, signed by the service or forged, is refused. */
export async function addRefusingConnection(browser: Browser, name: string): Promise<RefusingConnection> {
  const page = await asAdmin(browser);
  await page.goto("/connections/new");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Region").selectOption("eu");
  await page.getByLabel("Management API secret key").fill(globex.managementKey);
  await page
    .getByLabel("Server API secret key (optional)", { exact: true })
    .fill(`srv_alerts_e2e_${crypto.randomBytes(8).toString("hex")}`);
  await page.getByRole("button", { name: "Add connection" }).click();
  await page.getByRole("button", { name: "Add a second connection anyway" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const id = new URL(page.url()).pathname.split("/").pop()!;
  const webhookUrl = await page.getByTestId("webhook-url").inputValue();
  await page.context().close();
  return { id, name, webhookUrl };
}

/** Posts `count` deliveries with a forged signature to the connection's URL: each refused for a bad signature. */
export async function postForgedDeliveries(request: APIRequestContext, connection: RefusingConnection, count: number) {
  for (let i = 0; i < count; i++) {
    const body = JSON.stringify({
      version: 1,
      id: crypto.randomUUID(),
      source: "https://evil.example",
      time: new Date().toISOString(),
      tenantId: globex.id,
      type: "authenticator.expired",
      data: {},
    });
    const response = await request.post(connection.webhookUrl, {
      headers: {
        "content-type": "application/json",
        "x-signature-v2": `t=${Math.floor(Date.now() / 1000)},v2=Zm9yZ2Vk`,
      },
      data: body,
    });
    expect(response.status()).toBe(401);
  }
}

/** Deletes the connection, with its refusals and alerts. */
export async function deleteConnection(browser: Browser, connection: RefusingConnection) {
  const page = await asAdmin(browser);
  await page.goto(`/connections/${connection.id}`);
  await page.getByRole("button", { name: "Delete connection" }).click();
  const dialog = page.getByRole("dialog", { name: `Delete ${connection.name}?` });
  await dialog.getByLabel(`Type ${connection.name} to confirm`).fill(connection.name);
  await dialog.getByRole("button", { name: "Delete connection" }).click();
  await expect(page).toHaveURL(/\/connections$/);
  await page.context().close();
}
