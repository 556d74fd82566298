import { expect, test } from "@playwright/test";

import { signIn } from "./support/auth";
import { e2eUsers } from "./support/env";
import { captureNextServerAction, replayServerAction } from "./support/server-actions";

test("an admin sends a test event through the public receiver URL; the log marks it; support cannot send one", async ({
  page,
  browser,
}) => {
  // Support signs in alongside (its check comes last), so the two sign-ins do not add up.
  const supportContext = await browser.newContext();
  const support = await supportContext.newPage();
  const supportSignedIn = signIn(support, e2eUsers.support);
  await signIn(page, e2eUsers.admin, "/connections");
  await page.getByRole("link", { name: "Globex", exact: true }).filter({ visible: true }).first().click();
  await expect(page).toHaveURL(/\/connections\/[0-9a-f-]{36}$/);
  const connectionId = new URL(page.url()).pathname.split("/").pop()!;
  await page.getByRole("tab", { name: "Webhooks" }).click();
  const token = (await page.getByTestId("webhook-url").inputValue()).split("/").pop()!;

  // A double click sends one request; in e2e the public URL is the console's own, so the delivery really goes through.
  let actionPosts = 0;
  page.on("request", (r) => {
    if (r.method() === "POST" && r.headers()["next-action"]) actionPosts++;
  });
  const captured = captureNextServerAction(page);
  await page.getByRole("button", { name: "Send a test event" }).dblclick();
  const result = page.getByTestId("test-event-result");
  await expect(result).toContainText("Delivered: the receiver verified it with key 1 and stored it.");
  await expect(result).toContainText("HTTP 200");
  // The URL used is shown with its token masked.
  await expect(result).toContainText(`/api/webhooks/${token.slice(0, 4)}…${token.slice(-4)}`);
  await expect(result).not.toContainText(token);
  expect(actionPosts).toBe(1);
  const sendAction = await captured;

  await result.getByRole("link", { name: "Open it in the webhook log" }).click();
  await expect(page).toHaveURL(new RegExp(`/webhooks\\?connectionId=${connectionId}&test=only&event=\\d+`));
  const detail = page.getByRole("dialog", { name: "Event details" });
  await expect(detail.getByTestId("detail-test-badge")).toContainText("Test");
  await expect(detail.getByTestId("raw-body")).toContainText('"userId": "usr_console_test"');
  await page.keyboard.press("Escape");
  const testRow = page.getByTestId("webhook-event-row").filter({ hasText: "usr_console_test" }).first();
  await expect(testRow.getByTestId("test-badge")).toHaveText("Test");
  const testFilter = page.getByRole("search", { name: "Filter webhook events" }).getByLabel("Test events");
  await expect(testFilter).toHaveValue("only");

  // The bar's select applies at once: test=exclude, in the link, leaves it out.
  await testFilter.selectOption({ label: "Real events only" });
  await expect(page).toHaveURL(new RegExp(`/webhooks\\?connectionId=${connectionId}&test=exclude$`));
  // Once the log has streamed in (rows of real events, or its empty state), no test row is among them.
  await expect(
    page
      .getByTestId("webhook-event-row")
      .or(page.getByRole("heading", { name: "No webhook events match" }))
      .first(),
  ).toBeVisible();
  await expect(page.getByTestId("webhook-event-row").filter({ hasText: "usr_console_test" })).toHaveCount(0);

  // Support: the page is admin-only, and the action refuses when its request is replayed with support's session.
  await supportSignedIn;
  expect((await support.goto(`/connections/${connectionId}`))?.status()).toBe(403);
  const replay = await replayServerAction(support.request, sendAction);
  expect(replay.status === 409 || replay.text.includes("Only admin users can do this.")).toBe(true);
  expect(replay.text).not.toContain("Delivered");
  await supportContext.close();
});
