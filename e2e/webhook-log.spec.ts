import { expect, test, type Page } from "@playwright/test";

import { signIn } from "./support/auth";
import { axeViolations } from "./support/axe";
import { expireAuthenticator } from "./support/emulator";
import { e2eUsers } from "./support/env";
import { postForgedEvent, rowFor, uniqueUser } from "./support/webhook-log";

/**
 * The webhook log's pages: events appear while following live, open in a drawer (by click, Enter, j/k),
 * follow the header's connection, mask personal data for support, read the same before and after hydration;
 * neither log scrolls sideways, and axe finds nothing in them.
 */
test.describe("webhook log", () => {
  test("an expiry in the emulator appears while following live; detail, filter, shared link", async ({
    page,
    browser,
  }) => {
    await signIn(page, e2eUsers.admin, "/webhooks");
    await expect(page.getByRole("heading", { name: "Webhooks" })).toBeVisible();
    // Visible only: while React reveals the streamed page, its copy of the heading sits hidden beside loading.tsx's.
    await expect(page.getByText(/kept for\s+\d+ days/).filter({ visible: true })).toBeVisible();
    await page.getByLabel(/Follow live/).check();

    const userId = uniqueUser("live");
    await expireAuthenticator(userId);
    // No reload: the followed view polls and announces the new row politely.
    await expect(rowFor(page, userId)).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId("live-announcement")).toHaveText(/new webhook event/);
    // One delivery shows no count (only a retried event gets its "×N").
    await expect(rowFor(page, userId).getByTestId("delivery-count")).toHaveCount(0);
    await expect(rowFor(page, userId)).toContainText("verified (key 1)");

    const rowLink = rowFor(page, userId).getByRole("link");
    await rowLink.click();
    const detail = page.getByRole("dialog", { name: "Event details" });
    await expect(detail).toContainText(`ua_${userId}`);
    await expect(detail.getByTestId("raw-body")).toContainText(`"userId": "${userId}"`);
    await expect(detail).toContainText("authenticator.expired");
    await expect(detail.getByRole("link", { name: "Look up this user" })).toHaveAttribute(
      "href",
      `/users?userId=${userId}&lookup=1`,
    );
    // The drawer takes focus and lands in the URL (shareable); Escape closes it and focus goes back.
    await expect(detail.getByRole("heading", { name: "Event details" })).toBeFocused();
    await expect(page).toHaveURL(/[?&]event=\d+/);
    const detailUrl = page.url();
    await page.keyboard.press("Escape");
    await expect(detail).toHaveCount(0);
    await expect(rowLink).toBeFocused();
    await expect(page).not.toHaveURL(/event=/);

    const filters = page.getByRole("search", { name: "Filter webhook events" });
    await filters.getByLabel("User id", { exact: true }).fill(userId);
    await filters.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(new RegExp(`userId=${userId}`));
    // Visible rows only, read once shown: a row still in React's hidden copy of a streamed page has no
    // layout, so its inner text comes without the cells' tabs and line breaks.
    const shownRows = (p: Page) => p.getByTestId("webhook-event-row").filter({ visible: true });
    await expect(shownRows(page)).toHaveCount(1);
    const rows = await shownRows(page).allInnerTexts();

    const shared = await browser.newContext();
    const second = await shared.newPage();
    await signIn(second, e2eUsers.admin);
    await second.goto(page.url());
    await expect(shownRows(second)).toHaveCount(1);
    // The same row; its relative time may have moved on by a tick since the first page rendered it.
    const withoutTime = (texts: string[]) =>
      texts.map((t) => t.replace(/just now|in under a minute|\d+ (min|h|d) ago/, "<time>"));
    expect(withoutTime(await shownRows(second).allInnerTexts())).toEqual(withoutTime(rows));
    await second.goto(detailUrl);
    await expect(second.getByRole("dialog", { name: "Event details" })).toContainText(`ua_${userId}`);
    await shared.close();
  });

  test("support users see email and phone masked in the page and the API", async ({ page }) => {
    const userId = uniqueUser("pii");
    await expireAuthenticator(userId, { verificationMethod: "EMAIL_OTP", email: "jordan.private@example.com" });
    await signIn(page, e2eUsers.support, `/webhooks?userId=${userId}`);
    await expect(page.getByTestId("webhook-event-row")).toHaveCount(1);
    await page.getByTestId("webhook-event-row").click();
    const detail = page.getByRole("dialog", { name: "Event details" });
    await expect(detail).toContainText("j•••@example.com");
    await expect(detail.getByTestId("raw-body")).toContainText("j•••@example.com");
    await expect(page.locator("body")).not.toContainText("jordan.private@example.com");

    const api = await page.request.get(`/api/webhook-events?userId=${userId}`);
    expect(api.status()).toBe(200);
    const text = await api.text();
    expect(text).toContain("j•••@example.com");
    expect(text).not.toContain("jordan.private");
    const csv = await (await page.request.get(`/api/webhook-events/export?format=csv&userId=${userId}`)).text();
    expect(csv).toContain("j•••@example.com");
    expect(csv).not.toContain("jordan.private");
  });

  test("the log follows the header's connection; All connections says whose each event is", async ({ page }) => {
    const userId = uniqueUser("conn");
    await expireAuthenticator(userId);
    await signIn(page, e2eUsers.admin, "/webhooks?type=all");
    await expect(rowFor(page, userId)).toHaveCount(1);
    await expect(rowFor(page, userId).getByTestId("event-connection")).toHaveCount(0);

    const switcher = page.locator("#connection-switcher");
    await switcher.selectOption({ label: "Globex (EU)" });
    await expect(rowFor(page, userId)).toHaveCount(0);

    // The header offers All connections on the log; the rows then say whose they are.
    await switcher.selectOption({ label: "All connections" });
    await expect(rowFor(page, userId).getByTestId("event-connection")).toHaveText("Acme");
  });

  test("rows open the drawer by click and by Enter; j/k and the buttons move; Escape gives focus back to the row", async ({
    page,
  }) => {
    const prefix = uniqueUser("nav");
    for (const n of [1, 2, 3]) await expireAuthenticator(`${prefix}_${n}`);
    await signIn(page, e2eUsers.admin, `/webhooks?userId=${prefix}&userIdMatch=prefix`);
    const rows = page.getByTestId("webhook-event-row");
    await expect(rows).toHaveCount(3);
    const drawer = page.getByRole("dialog", { name: "Event details" });
    const shows = (n: number) => expect(drawer.getByTestId("raw-body")).toContainText(`"userId": "${prefix}_${n}"`);
    const older = drawer.getByRole("button", { name: "Next (older)" });
    const newer = drawer.getByRole("button", { name: "Previous (newer)" });

    // A click anywhere on the row, here on its time, opens it.
    await rowFor(page, `${prefix}_2`).locator("time").click();
    await shows(2);
    await page.keyboard.press("j");
    await shows(1);
    await expect(older).toBeDisabled();
    await page.keyboard.press("k");
    await shows(2);
    await page.keyboard.press("k");
    await shows(3);
    await expect(newer).toBeDisabled();
    await older.click();
    await shows(2);
    await expect(rowFor(page, `${prefix}_2`).getByRole("link")).toHaveAttribute("aria-current", "true");
    await page.keyboard.press("Escape");
    await expect(drawer).toHaveCount(0);
    // Focus goes back to the row shown last, not the one clicked first.
    await expect(rowFor(page, `${prefix}_2`).getByRole("link")).toBeFocused();

    // By keyboard: Tab reaches the next row's link, Enter opens it.
    await page.keyboard.press("Tab");
    await expect(rowFor(page, `${prefix}_1`).getByRole("link")).toBeFocused();
    await page.keyboard.press("Enter");
    await shows(1);
    await expect(page).toHaveURL(/[?&]event=\d+/);
    await drawer.getByRole("button", { name: "Close" }).click();
    await expect(rowFor(page, `${prefix}_1`).getByRole("link")).toBeFocused();
  });

  test("an event the link names but the log does not have says so, and the list stays", async ({ page }) => {
    await expireAuthenticator(uniqueUser("nf"));
    await signIn(page, e2eUsers.support);
    for (const event of ["garbage", "999999999"]) {
      await page.goto(`/webhooks?type=all&event=${event}`);
      const drawer = page.getByRole("dialog", { name: "Event details" });
      await expect(drawer.getByText("Event not found")).toBeVisible();
      await expect(page.getByTestId("webhook-event-row").first()).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(drawer).toHaveCount(0);
      await expect(page).not.toHaveURL(/event=/);
    }
  });

  test("times read the same before and after hydration", async ({ page }) => {
    await expireAuthenticator(uniqueUser("hydrate"));
    await signIn(page, e2eUsers.admin);
    const response = await page.goto("/webhooks?type=all");
    const html = await response!.text();
    const served = [...html.matchAll(/<time[^>]*dateTime="([^"]+)"[^>]*>([^<]*)<\/time>/gi)].map(
      (m) => [m[1]!, m[2]!] as const,
    );
    expect(served.length).toBeGreaterThan(0);
    // Hydrated once a row opens its drawer (a client handler); then the same <time>s read the same text.
    await page.getByTestId("webhook-event-row").first().getByRole("link").click();
    await expect(page.getByRole("dialog", { name: "Event details" })).toBeVisible();
    const hydrated = await page
      .locator("[data-testid=webhook-event-row] time")
      .evaluateAll((els) => els.map((e) => [e.getAttribute("datetime"), e.textContent]));
    expect(hydrated.length).toBeGreaterThan(0);
    const servedByInstant = new Map(served);
    for (const [instant, text] of hydrated) expect(text, instant!).toBe(servedByInstant.get(instant!));
    // The absolute time of day in the reader's zone (how long ago stands beside it, outside the <time>).
    expect(hydrated[0]![1]).toMatch(/^(\d{1,2} \w{3} )?\d{2}:\d{2}:\d{2}$/);
  });

  test("at 1280×800 neither log scrolls sideways; on a phone the open drawer does not widen the page", async ({
    page,
    request,
  }) => {
    // A row in each log, whichever specs ran before on this stack, with the longest method and platform the service names.
    await postForgedEvent(request);
    await expireAuthenticator(uniqueUser("layout_with_a_rather_long_user_identifier_0123456789"), {
      deviceName: "A device with a very long marketing name indeed",
      verificationMethod: "AUTHENTICATOR_APP",
      devicePlatform: "ANDROID",
    });
    await signIn(page, e2eUsers.admin);
    await page.setViewportSize({ width: 1280, height: 800 });
    const noSidewaysScroll = async (testId: string) => {
      const box = page.getByRole("region", { name: /newest first/ });
      await expect(page.getByTestId(testId).first()).toBeVisible();
      const [table, doc] = await Promise.all([
        box.evaluate((el) => [el.scrollWidth, el.clientWidth]),
        page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]),
      ]);
      expect(table[0]).toBeLessThanOrEqual(table[1]!);
      expect(doc[0]).toBeLessThanOrEqual(doc[1]!);
    };
    await page.goto("/webhooks?type=all&connectionId=all");
    await noSidewaysScroll("webhook-event-row");
    await page.goto("/webhooks?tab=rejections");
    await noSidewaysScroll("webhook-rejection-row");

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/webhooks?type=all&connectionId=all");
    await page.getByTestId("webhook-event-row").first().click();
    await expect(page.getByRole("dialog", { name: "Event details" }).getByTestId("raw-body")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.keyboard.press("Escape");
    await page.goto("/webhooks?tab=rejections");
    await page.getByTestId("webhook-rejection-row").first().click();
    await expect(page.getByRole("dialog", { name: "Rejection details" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  test("axe finds no WCAG A/AA violation in either log, its selected row or its drawer", async ({ page, request }) => {
    // A row in each log, whichever specs ran before on this stack, with the longest method and platform the service names.
    await postForgedEvent(request);
    await expireAuthenticator(uniqueUser("axe"));
    await signIn(page, e2eUsers.support);
    const expectNoViolations = async (label: string) => {
      const violations = await axeViolations(page, {
        include: "main",
        runOnly: { type: "tag", values: ["wcag2a", "wcag2aa"] },
      });
      expect(violations.map((v) => `${label}: ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual(
        [],
      );
    };
    await page.goto("/webhooks?type=all&connectionId=all");
    await expect(page.getByTestId("webhook-event-row").first()).toBeVisible();
    await expectNoViolations("events");
    await page.getByTestId("webhook-event-row").first().click();
    await expect(page.getByRole("dialog", { name: "Event details" }).getByTestId("raw-body")).toBeVisible();
    await expectNoViolations("event drawer");
    await page.goto("/webhooks?tab=rejections");
    await expect(page.getByTestId("webhook-rejection-row").first()).toBeVisible();
    await expectNoViolations("rejections");
    await page.getByTestId("webhook-rejection-row").first().click();
    await expectNoViolations("rejection drawer");
  });
});
