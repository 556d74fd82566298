import { expect, test, type Page } from "@playwright/test";

import { signIn } from "./support/auth";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { emulatorControl as emulator } from "./support/emulator";
import { e2eEnv, e2eUsers } from "./support/env";
import { captureNextServerAction, replayServerAction } from "./support/server-actions";

async function openDeleteDialog(page: Page) {
  await page.getByRole("button", { name: "Delete configuration" }).click();
  return page.getByRole("dialog", { name: "Delete the email OTP configuration?" });
}

async function auditRows(page: Page) {
  await page.goto("/audit?action=email_otp.deleted");
  return page.getByRole("table", { name: "Audit records, newest first" }).locator("tbody tr");
}

// Deleting changes the shared emulator (it also removes the tenant's EMAIL_OTP authenticators): put it
// back with a reset, then restore each tenant's webhook settings, which the e2e seed pointed at the console.
type TenantWebhook = { id: string; webhookUrl: string | null; webhookDelaySeconds: number };
let webhooks: TenantWebhook[] = [];
test.beforeAll(async () => {
  const state = (await (await fetch(`${e2eEnv.emulatorUrl}/_emulator/state`)).json()) as { tenants: TenantWebhook[] };
  webhooks = state.tenants;
});
test.afterAll(async () => {
  await emulator("faults", "DELETE");
  await emulator("reset", "POST");
  for (const t of webhooks)
    await emulator(`tenants/${t.id}/webhook`, "PUT", { url: t.webhookUrl, delaySeconds: t.webhookDelaySeconds });
});

test("the typed confirmation shows what to type and says when the text does not match", async ({ page }) => {
  await signIn(page, e2eUsers.admin, "/email-otp");
  await expectNoSeriousA11yViolations(page, "email OTP");
  const dialog = await openDeleteDialog(page);
  const input = dialog.getByLabel("Type Acme to confirm");
  // The name to type stands out in a chip of its own.
  await expect(dialog.locator("code", { hasText: /^Acme$/ })).toBeVisible();
  const confirm = dialog.getByRole("button", { name: "Delete permanently" });
  const mismatch = dialog.getByText("That does not match “Acme”");
  await expect(mismatch).toHaveCount(0);
  await input.fill("acme");
  await expect(mismatch).toBeVisible();
  await expect(confirm).toBeDisabled();
  const describedBy = (await input.getAttribute("aria-describedby")) ?? "";
  const messageId = await mismatch.getAttribute("id");
  expect(messageId).toBeTruthy();
  expect(describedBy.split(" ")).toContain(messageId);
  await expectNoSeriousA11yViolations(page, "email OTP dialog, wrong name");
  await input.fill("");
  await expect(mismatch).toHaveCount(0);
  await input.fill("Acme");
  await expect(mismatch).toHaveCount(0);
  await expect(confirm).toBeEnabled();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
});

test("email OTP: typed confirmation, one request per double click, 5xx not done, second attempt says there was none", async ({
  page,
  browser,
}) => {
  await signIn(page, e2eUsers.admin, "/email-otp");
  await expect(page.getByTestId("email-otp-fields")).toContainText("SENDGRID");
  await expect(page.getByTestId("email-otp-fields")).toContainText("Attempts allowed");
  await expect(page.getByTestId("email-otp-fields")).toContainText("10 min (600 s)");
  await expect(page.getByTestId("email-otp-fields")).not.toContainText("otpLifetimeInSeconds");
  // A second tab that still shows the configuration, for the second attempt.
  const stale = await page.context().newPage();
  await stale.goto("/email-otp");
  await expect(stale.getByTestId("email-otp-fields")).toBeVisible();

  // 1. A 5xx: not deleted, nothing recorded as done. The captured request is replayed by support below.
  await emulator("faults", "POST", { region: "us", mode: "500", count: 1 });
  let dialog = await openDeleteDialog(page);
  await expect(dialog).toContainText(
    "permanently deletes the tenant's email OTP configuration and its stored credentials",
  );
  await expect(dialog).toContainText("Acme");
  await expect(dialog).toContainText("US (Oregon)");
  const confirm = dialog.getByRole("button", { name: "Delete permanently" });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel("Type Acme to confirm").fill("Acm");
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel("Type Acme to confirm").fill("Acme");
  await expect(confirm).toBeEnabled();
  const captured = captureNextServerAction(page);
  await confirm.click();
  const deleteAction = await captured;
  await expect(page.getByText("Not deleted: the service answered HTTP 500. Try again.")).toBeVisible();
  await page.keyboard.press("Escape");
  await page.reload();
  await expect(page.getByTestId("email-otp-fields")).toBeVisible();

  // 2. Support replays the admin's request (the fault is used up, so it would succeed): refused, nothing changed.
  const supportContext = await browser.newContext();
  const support = await supportContext.newPage();
  await signIn(support, e2eUsers.support);
  // Refused twice over: the proxy answers the admin-only section with its access-denied page (so
  // Next finds no such action there, 409), and the action checks the role itself (data-points.spec
  // replays an action on a page support may open, which reaches that check).
  const replay = await replayServerAction(support.request, deleteAction);
  expect(replay.status === 409 || replay.text.includes("Only admin users can do this.")).toBe(true);
  expect(replay.text).not.toContain('"ok":true');
  expect((await support.goto("/email-otp"))?.status()).toBe(403);
  await supportContext.close();
  await page.reload();
  await expect(page.getByTestId("email-otp-fields")).toBeVisible();

  // 3. Success, with a double click sending one request.
  let actionPosts = 0;
  page.on("request", (r) => {
    if (r.method() === "POST" && r.headers()["next-action"]) actionPosts++;
  });
  dialog = await openDeleteDialog(page);
  await dialog.getByLabel("Type Acme to confirm").fill("Acme");
  await dialog.getByRole("button", { name: "Delete permanently" }).dblclick();
  await expect(page.getByText("Deleted the email OTP configuration of Acme.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "No email OTP configuration" })).toBeVisible();
  expect(actionPosts).toBe(1);

  // 4. The stale tab tries again: the service says 404, shown as "there was none", not as an error.
  dialog = await openDeleteDialog(stale);
  await dialog.getByLabel("Type Acme to confirm").fill("Acme");
  await dialog.getByRole("button", { name: "Delete permanently" }).click();
  await expect(stale.getByText("There was no email OTP configuration in Acme: nothing to delete.")).toBeVisible();
  await expect(stale.getByRole("heading", { name: "No email OTP configuration" })).toBeVisible();

  // The audit log has the three attempts: 500 (failure), 200 (success), 404 (failure), newest first.
  const rows = await auditRows(page);
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText("HTTP 404");
  await expect(rows.nth(1)).toContainText("success · HTTP 200");
  await expect(rows.nth(2)).toContainText("failure · HTTP 500");
});

test("after the configuration is deleted, the page says how to set it up again", async ({ page }) => {
  await signIn(page, e2eUsers.admin, "/email-otp");
  const absent = page.getByRole("heading", { name: "No email OTP configuration" });
  await expect(page.getByTestId("email-otp-fields").or(absent)).toBeVisible();
  if (await page.getByTestId("email-otp-fields").isVisible()) {
    const dialog = await openDeleteDialog(page);
    await dialog.getByLabel("Type Acme to confirm").fill("Acme");
    await dialog.getByRole("button", { name: "Delete permanently" }).click();
  }
  await expect(absent).toBeVisible();
  const setUp = page.getByTestId("email-otp-set-up");
  await expect(setUp.getByRole("heading", { name: "To set it up again" })).toBeVisible();
  await expect(setUp).toContainText(
    "In the service’s own portal for this tenant, in its US (Oregon) region, add email OTP",
  );
  await expect(setUp).toContainText("management API");
  await expectNoSeriousA11yViolations(page, "email OTP, none configured", ["light", "dark"]);

  // Set up again at the service: "Check again" shows it.
  await emulator("reset", "POST");
  await page.getByRole("link", { name: "Check again" }).click();
  await expect(page.getByTestId("email-otp-fields")).toBeVisible();
});
