import { expect, test } from "@playwright/test";

import type { TenantApp } from "@/tooling/tenant-app";

import { signIn } from "./support/auth";
import { addDestination, removeDestination, startAcmeTenantApp } from "./support/destinations";
import { expireAuthenticator } from "./support/emulator";
import { e2eUsers } from "./support/env";
import { captureNextServerAction, replayServerAction } from "./support/server-actions";
import { rowFor, uniqueUser } from "./support/webhook-log";

// Forwarding from the console to a tenant's own handler (tooling/tenant-app.ts, verifying with the
// service's SDK), set up through the Destinations page. The e2e console allows 127.0.0.1 over http.

let tenantApp: TenantApp;
test.beforeAll(async () => {
  tenantApp = await startAcmeTenantApp();
});
test.afterAll(() => tenantApp.close());

test("an admin adds the tenant's handler; a real event reaches it signed as the service, and the health line counts it", async ({
  page,
}) => {
  await signIn(page, e2eUsers.admin, "/destinations");
  await expect(page.getByRole("heading", { name: "Destinations", level: 1 })).toBeVisible();

  // A URL the rules refuse: named in words under the field, nothing saved.
  await addDestination(page, "Internal", "https://127.0.0.2:9/hook");
  await expect(page.getByText("The address 127.0.0.2 is not allowed (loopback).")).toBeVisible();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("destination-Internal")).toHaveCount(0);

  await addDestination(page, "Tenant app", `${tenantApp.url}/tenants/acme`);
  const card = page.getByTestId("destination-Tenant app");
  await expect(card).toContainText("Delivering");
  await expect(card).toContainText("As the service");

  await expireAuthenticator("usr_forwarded");
  await expect
    .poll(() => tenantApp.receipts.filter((r) => r.verified && r.answered === 200).length, { timeout: 15_000 })
    .toBeGreaterThanOrEqual(1);

  await page.reload();
  await expect(card).toContainText(/100 % of \d+/);
  await removeDestination(page, "Tenant app");
});

test("a Standard Webhooks destination shows its secret once; support sees destinations but cannot change them", async ({
  page,
  browser,
}) => {
  await signIn(page, e2eUsers.admin, "/destinations");
  const captured = captureNextServerAction(page);
  await addDestination(page, "Billing", `${tenantApp.url}/billing`, /Standard Webhooks/);
  const createAction = await captured;
  const secret = page.getByTestId("destination-secret");
  await expect(secret).toHaveText(/^whsec_[A-Za-z0-9+/=]{32}$/);
  const shown = (await secret.textContent())!;
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("destination-Billing")).toContainText("Standard Webhooks");
  await page.reload();
  expect(await page.content()).not.toContain(shown);

  const supportContext = await browser.newContext();
  const support = await supportContext.newPage();
  await signIn(support, e2eUsers.support, "/destinations");
  await expect(support.getByTestId("destination-Billing")).toContainText("Standard Webhooks");
  await expect(support.getByRole("button", { name: "Add a destination" })).toHaveCount(0);
  await expect(support.getByRole("button", { name: "Remove" })).toHaveCount(0);
  const replay = await replayServerAction(support.request, createAction);
  expect(replay.text).toContain("Only admin users can do this.");
  await supportContext.close();

  await removeDestination(page, "Billing");
});

test("the form offers unverified events for Standard Webhooks only and takes a delivery cap; the list shows both and the cap changes", async ({
  page,
}) => {
  await signIn(page, e2eUsers.admin, "/destinations");
  await page.getByRole("button", { name: "Add a destination" }).click();
  const form = page.getByRole("form", { name: "Add a destination" });
  const unverified = form.getByLabel("Include events the console could not verify");
  await expect(unverified).toHaveCount(0);
  await form.getByLabel(/Standard Webhooks/).check();
  await unverified.check();
  await form.getByLabel("Name").fill("Capped");
  await form.getByLabel("URL").fill(`${tenantApp.url}/capped`);
  const rate = form.getByLabel("Maximum deliveries per second");
  await rate.fill("0");
  await form.getByRole("button", { name: "Add destination" }).click();
  await expect(
    form.getByText("Maximum deliveries per second is a whole number from 1 to 10000, or empty for no cap."),
  ).toBeVisible();
  await rate.fill("20");
  await form.getByRole("button", { name: "Add destination" }).click();
  await page.getByRole("button", { name: "Done" }).click();
  const card = page.getByTestId("destination-Capped");
  await expect(card).toContainText("20 per second");
  await expect(card).toContainText("Included, marked unsigned");

  await card.getByRole("button", { name: "Change cap" }).click();
  const dialog = page.getByRole("dialog", { name: "Delivery cap of Capped" });
  await dialog.getByLabel("Maximum deliveries per second").fill("10001");
  await dialog.getByRole("button", { name: "Save cap" }).click();
  await expect(dialog.getByRole("alert")).toHaveText(/whole number from 1 to 10000/);
  await dialog.getByLabel("Maximum deliveries per second").fill("");
  await dialog.getByRole("button", { name: "Save cap" }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toContainText("No cap");
  await removeDestination(page, "Capped");
});

test("from the log: an event's drawer lists its forwards and resends it; a replay of the filters shows its size, then its progress", async ({
  page,
}) => {
  await signIn(page, e2eUsers.admin, "/destinations");
  await addDestination(page, "Tenant app", `${tenantApp.url}/tenants/acme`);
  await expect(page.getByTestId("destination-Tenant app")).toContainText("Delivering");
  const userId = uniqueUser("forwarded");
  await expireAuthenticator(userId);
  const listed = await (await page.request.get(`/api/webhook-events?userId=${userId}`)).json();
  const eventId: string = listed.events[0].eventId;
  const received = () =>
    tenantApp.receipts.filter((r) => r.eventId === eventId && r.verified && r.answered === 200).length;
  await expect.poll(received, { timeout: 15_000 }).toBe(1);
  const before = received();

  await page.goto(`/webhooks?userId=${userId}`);
  await rowFor(page, userId).first().click();
  const forwards = page.getByTestId("forwards-Tenant app");
  await expect(forwards).toContainText("Delivered");
  await expect(forwards).toContainText("delivered: answered 200");
  await forwards.getByRole("button", { name: "Resend" }).click();
  await expect.poll(received, { timeout: 15_000 }).toBe(before + 1);
  await expect(forwards.getByText("resend", { exact: true })).toBeVisible({ timeout: 10_000 });
  await page.keyboard.press("Escape");

  await page.getByRole("button", { name: "Replay…" }).click();
  const dialog = page.getByRole("dialog", { name: /Replay Acme's events/ });
  await expect(dialog.getByTestId("replay-count")).toHaveText("1 event matches these filters.");
  await dialog.getByRole("button", { name: "Replay 1 event" }).click();
  await expect(dialog.getByTestId("replay-progress")).toHaveText("Finished: 1 of 1 delivered, 0 failed, 0 waiting.", {
    timeout: 15_000,
  });
  expect(received()).toBe(before + 2);
  await dialog.getByRole("button", { name: "Close" }).click();

  await page.goto("/destinations");
  await removeDestination(page, "Tenant app");
});
