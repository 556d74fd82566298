import { expect, test } from "@playwright/test";

import { signIn } from "./support/auth";
import { e2eUsers } from "./support/env";
import { captureNextServerAction, replayServerAction } from "./support/server-actions";

test.describe("data points", () => {
  test("a lookup shows every field with readable badges; a missing id names the connection", async ({ page }) => {
    await signIn(page, e2eUsers.admin, "/data-points");
    await page.getByLabel("Data point id").fill("dp_order_total");
    await page.getByRole("button", { name: "Look up" }).click();
    await expect(page).toHaveURL(/\/data-points\?id=dp_order_total$/);
    await expect(page.getByTestId("data-point-name")).toHaveText("Order total");
    await expect(page.getByText("Basket value in cents at checkout").first()).toBeVisible();
    await expect(page.getByText("Number", { exact: true })).toBeVisible();
    await expect(page.getByText("Action attribute", { exact: true })).toBeVisible();

    await page.getByLabel("Data point id").fill("dp_does_not_exist");
    await page.getByRole("button", { name: "Look up" }).click();
    await expect(page.getByText("There is no data point with the id “dp_does_not_exist” in Acme.")).toBeVisible();
  });

  test("the watch list: add from a lookup, refresh all, remove; support may view but not change it", async ({
    page,
    browser,
  }) => {
    await signIn(page, e2eUsers.admin, "/data-points?id=dp_loyalty_tier");
    await expect(page.getByTestId("data-point-name")).toHaveText("Loyalty tier");
    const captured = captureNextServerAction(page);
    await page.getByRole("button", { name: "Add to watch list" }).click();
    const watchAction = await captured;
    const row = page.getByTestId("watch-dp_loyalty_tier");
    await expect(row).toContainText("Loyalty tier");
    await expect(row).toContainText("current");
    await expect(page.getByRole("button", { name: "On the watch list" })).toBeDisabled();

    await page.getByRole("button", { name: "Refresh all" }).click();
    await expect(page.getByText("Refreshed 1 data point.")).toBeVisible();

    await page.getByRole("button", { name: "Stop watching dp_loyalty_tier" }).click();
    await expect(row).toHaveCount(0);
    await expect(page.getByText("Nothing watched yet")).toBeVisible();

    // Support: can look up and see the list, has no watch controls, and a replayed admin action is refused.
    const supportContext = await browser.newContext();
    const support = await supportContext.newPage();
    await signIn(support, e2eUsers.support, "/data-points?id=dp_loyalty_tier");
    await expect(support.getByTestId("data-point-name")).toHaveText("Loyalty tier");
    await expect(support.getByRole("button", { name: "Add to watch list" })).toHaveCount(0);
    const replay = await replayServerAction(support.request, watchAction);
    expect(replay.text).toContain("Only admin users can do this.");
    await support.reload();
    await expect(support.getByText("Nothing watched yet")).toBeVisible();

    // Control: the same request with the admin's cookies does add it, so the refusal above was the role check.
    const adminReplay = await replayServerAction(page.request, watchAction);
    expect(adminReplay.text).toContain('"ok":true');
    await page.reload();
    await expect(page.getByTestId("watch-dp_loyalty_tier")).toBeVisible();
    await page.getByRole("button", { name: "Stop watching dp_loyalty_tier" }).click();
    await expect(page.getByTestId("watch-dp_loyalty_tier")).toHaveCount(0);
    await supportContext.close();
  });

  test("an over-long id in a link is named in the form and not looked up", async ({ page }) => {
    await signIn(page, e2eUsers.support, `/data-points?id=${"x".repeat(201)}`);
    await expect(page.getByText("Data point ids have at most 200 characters.")).toBeVisible();
    await expect(page.getByLabel("Data point id")).toHaveValue("x".repeat(201));
    await expect(page.getByTestId("streamed-section-pending")).toHaveCount(0);
    await expect(page.getByTestId("data-point-name")).toHaveCount(0);
  });
});
