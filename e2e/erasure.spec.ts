import crypto from "node:crypto";

import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

import { signIn } from "./support/auth";
import { sidewaysOverflow } from "./support/axe";
import { expireAuthenticator } from "./support/emulator";
import { e2eUsers } from "./support/env";
import { deliverSignedExpiry } from "./support/signed-expiry";
import { uniqueUser } from "./support/webhook-log";

/**
 * Erasing an end user's data against the production build: from the Users page (count, typed
 * confirmation, result) and over HTTP (DELETE /api/end-users/{userId}), each checked from outside through
 * the log's API and the audit page.
 */

/** The user's events the log's API lists (the admin's session). */
async function eventsOf(request: APIRequestContext, userId: string): Promise<number> {
  const response = await request.get(`/api/webhook-events?connectionId=all&userId=${encodeURIComponent(userId)}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { events: unknown[] }).events.length;
}

async function openEraseDialog(page: Page, userId: string, where: "Every connection" | "Acme only") {
  const form = page.getByRole("form", { name: "Erase a user's data" });
  await form.getByLabel("User id to erase").fill(userId);
  await form.getByLabel("In", { exact: true }).selectOption({ label: where });
  await form.getByRole("button", { name: "Erase data…" }).click();
  const dialog = page.getByRole("dialog", { name: "Erase a user's data" });
  await expect(dialog.getByTestId("erasure-count")).toBeVisible();
  return dialog;
}

test("an admin sees what a user's erasure takes, confirms it with the id, and the user's data is gone; support is not offered it", async ({
  page,
  browser,
}) => {
  const userId = uniqueUser("erase");
  const email = `${userId}@example.com`;
  // The service's own delivery, through the emulator: the webhook carries the address unmasked.
  await expireAuthenticator(userId, { verificationMethod: "EMAIL_OTP", email });
  await signIn(page, e2eUsers.admin, `/users?userId=${userId}`);
  await expect.poll(() => eventsOf(page.request, userId)).toBe(1);

  // Prefilled with the id the page was asked about.
  await expect(page.getByLabel("User id to erase")).toHaveValue(userId);
  const dialog = await openEraseDialog(page, userId, "Every connection");
  await expect(dialog.getByTestId("erasure-count")).toContainText(
    `In every connection, the console holds 1 event about ${userId}.`,
  );
  await expect(dialog).toContainText("Forwards already delivered cannot be recalled");
  const erase = dialog.getByRole("button", { name: "Erase permanently" });
  await expect(erase).toBeDisabled();
  const confirmation = dialog.getByLabel(/^Type .* to confirm$/);
  await expect(confirmation).toBeFocused();
  await confirmation.fill(userId.toUpperCase());
  await expect(dialog.getByText(`That does not match “${userId}”`)).toBeVisible();
  await expect(erase).toBeDisabled();
  // Escape closes it and nothing is erased.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  expect(await eventsOf(page.request, userId)).toBe(1);

  await openEraseDialog(page, userId, "Every connection");
  await dialog.getByLabel(/^Type .* to confirm$/).fill(userId);
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("status").filter({ hasText: "Erased" })).toContainText(
    `Erased 1 event about ${userId} in every connection.`,
  );
  await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  expect(await eventsOf(page.request, userId)).toBe(0);

  // Asked again: nothing left, and the console knows it erased this user before.
  const again = await openEraseDialog(page, userId, "Acme only");
  await expect(again.getByTestId("erasure-count")).toContainText(`In Acme, the console holds nothing about ${userId}.`);
  await expect(again.getByTestId("erasure-count")).toContainText("Erased before: once");
  await page.keyboard.press("Escape");

  await page.goto("/audit?action=end_user.erased");
  const record = page.getByRole("table", { name: "Audit records, newest first" }).locator("tbody tr").first();
  await expect(record).toContainText(e2eUsers.admin.email);
  await expect(record).toContainText(/user#[0-9a-f]{16}/);
  expect(await page.content()).not.toContain(userId);

  const support = await (await browser.newContext()).newPage();
  await signIn(support, e2eUsers.support, "/users");
  await expect(support.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();
  await expect(support.getByRole("heading", { name: "Erase a user's data" })).toHaveCount(0);
  await expect(support.getByRole("button", { name: "Erase data…" })).toHaveCount(0);
  await support.context().close();
});

test("a deletion pipeline erases a user over HTTP: admins only, any id in the path, every connection or one", async ({
  page,
  browser,
}) => {
  const userId = `${uniqueUser("api")} é/+1`;
  await deliverSignedExpiry(page.request, userId, { phoneNumber: "+15550009876" });
  await deliverSignedExpiry(page.request, userId);
  await signIn(page, e2eUsers.admin, "/users");
  expect(await eventsOf(page.request, userId)).toBe(2);
  const path = `/api/end-users/${encodeURIComponent(userId)}`;

  const support = await (await browser.newContext()).newPage();
  await signIn(support, e2eUsers.support, "/users");
  const refused = await support.request.delete(path);
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toEqual({ error: "forbidden", errorDescription: "This API needs the admin role." });
  await support.context().close();
  const unknown = await page.request.delete(`${path}?connectionId=${crypto.randomUUID()}`);
  expect(unknown.status()).toBe(404);
  expect(await eventsOf(page.request, userId)).toBe(2);

  const erased = await page.request.delete(path);
  expect(erased.status()).toBe(200);
  expect(await erased.json()).toEqual({
    userIdHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    connectionId: null,
    erased: expect.objectContaining({ events: 2 }),
  });
  expect(await eventsOf(page.request, userId)).toBe(0);
  const again = await page.request.delete(path);
  expect(((await again.json()) as { erased: { events: number } }).erased.events).toBe(0);
});

test("the erase form and its dialog fit a phone and a laptop", async ({ page }) => {
  await signIn(page, e2eUsers.admin, "/users");
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    const dialog = await openEraseDialog(page, `usr_${"long".repeat(40)}`, "Every connection");
    await expect(dialog.getByTestId("erasure-count")).toContainText("the console holds nothing");
    expect(await sidewaysOverflow(page, { tables: viewport.width >= 1280 }), `${viewport.width} px`).toEqual([]);
    const box = (await dialog.boundingBox())!;
    expect(box.x + box.width, `${viewport.width} px: the dialog within the window`).toBeLessThanOrEqual(viewport.width);
    await page.keyboard.press("Escape");
  }
});
