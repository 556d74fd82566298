import { expect, test } from "@playwright/test";

import { signIn } from "./support/auth";
import { e2eUsers } from "./support/env";

/**
 * The webhook log's filters: a link's bad or unknown parameters are left out and named (the API answers
 * 400), selects apply at once, time presets stay relative in the link.
 */
test.describe("webhook log filters", () => {
  test("a bad filter in a link is left out and named; the API answers 400", async ({ page }) => {
    await signIn(page, e2eUsers.support, "/webhooks?receivedFrom=yesterday&verificationMethod=push");
    await expect(page.getByText("One filter in the link was left out")).toBeVisible();
    await expect(page.getByText("Received from: must be an ISO 8601 time, e.g. 2026-01-31T12:00:00Z.")).toBeVisible();
    // The valid filter still applies (upper-cased, as the spec's values are) and the form stays.
    const form = page.getByRole("search", { name: "Filter webhook events" });
    await expect(form.getByLabel("Method")).toHaveValue("PUSH");
    // The custom range shows only once Custom… is chosen, and says its zone.
    await expect(form.getByLabel("From (UTC)", { exact: true })).toBeHidden();
    await form.getByLabel("Received").selectOption({ label: "Custom…" });
    await expect(form.getByLabel("From (UTC)", { exact: true })).toBeVisible();
    await expect(page).not.toHaveURL(/received=/);
    // The expiry range folds under More, open while one of its filters is set.
    await expect(form.getByLabel("Expired from (UTC)")).toBeHidden();
    await page.goto("/webhooks?expiresFrom=2025-01-01T00:00:00.000Z");
    // The UTC wall time of the link (the browser drops zero seconds).
    await expect(form.getByLabel("Expired from (UTC)")).toHaveValue("2025-01-01T00:00");
    const api = await page.request.get("/api/webhook-events?limit=5000");
    expect(api.status()).toBe(400);
    expect(await api.json()).toMatchObject({ error: "invalid_request" });
  });

  test("the filter bar: selects apply at once, time presets stay relative in the link", async ({ page }) => {
    await signIn(page, e2eUsers.support, "/webhooks");
    const bar = page.getByRole("search", { name: "Filter webhook events" });
    await bar.getByLabel("Method").selectOption("PUSH");
    await expect(page).toHaveURL(/verificationMethod=PUSH/);
    await expect(bar.getByLabel("Platform").locator("option")).toContainText(["All platforms", "IOS", "ANDROID"]);
    await bar.getByLabel("Received").selectOption({ label: "Last hour" });
    await expect(page).toHaveURL(/received=1h/);
    await expect(page).toHaveURL(/verificationMethod=PUSH/);
    await expect(bar.getByLabel("Received")).toHaveValue("1h");
  });

  test("link parameters that are no filter are named, and a bad page size is said in words", async ({ page }) => {
    await signIn(page, e2eUsers.support, "/webhooks?method=PUSH&userId=usr_nobody");
    await expect(
      page.getByText("method: not a filter of this log; did you mean Method (verificationMethod=PUSH)?"),
    ).toBeVisible();
    await expect(
      page.getByRole("search", { name: "Filter webhook events" }).getByLabel("User id", { exact: true }),
    ).toHaveValue("usr_nobody");
    await page.goto("/webhooks?limit=abc");
    await expect(page.getByText("Rows per page: must be a whole number from 1 to 200.")).toBeVisible();
    await expect(page.getByText(/NaN/)).toHaveCount(0);

    for (const [url, named] of [
      ["/api/webhook-events?method=PUSH", "method"],
      ["/api/webhook-events?limit=abc", "Rows per page (limit)"],
      ["/api/webhook-events/export?format=csv&platform=IOS", "platform"],
      ["/api/webhook-rejections?reason=nope", "Reason (reason)"],
      ["/api/webhook-rejections?format=csv&colour=red", "colour"],
    ] as const) {
      const response = await page.request.get(url);
      expect(response.status(), url).toBe(400);
      const body = (await response.json()) as { error: string; errorDescription: string };
      expect(body.error).toBe("invalid_request");
      expect(body.errorDescription).toContain(named);
    }
    for (const url of [
      "/api/webhook-events?received=1h&limit=5&verificationMethod=PUSH",
      "/api/webhook-events/export?format=ndjson&received=24h",
      "/api/webhook-rejections?received=7d&limit=3",
    ]) {
      expect((await page.request.get(url)).status(), url).toBe(200);
    }
  });
});
