import http from "node:http";
import type { AddressInfo } from "node:net";

import { expect, test } from "@playwright/test";

import { signIn, waitForHydration } from "./support/auth";
import { addDestination, removeDestination } from "./support/destinations";
import { expireAuthenticator } from "./support/emulator";
import { e2eUsers } from "./support/env";
import { rowFor, uniqueUser } from "./support/webhook-log";

/**
 * What a row of the webhook log tells support at a glance: when (in the reader's zone), which event (copyable),
 * where its forwards went; and on a phone, the filters folded and each row a card.
 */
test.describe("webhook log rows", () => {
  test.use({ timezoneId: "Asia/Tokyo" });

  test("a row shows when it was received in the reader's zone, UTC in its title, and a copyable event id", async ({
    page,
    context,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const userId = uniqueUser("time");
    await expireAuthenticator(userId);
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, e2eUsers.support, `/webhooks?userId=${userId}`);
    const row = rowFor(page, userId);
    const received = row.getByTestId("received-time");
    const iso = (await received.locator("time").getAttribute("datetime"))!;
    const tokyo = new Date(iso).toLocaleTimeString("en-GB", { timeZone: "Asia/Tokyo", hourCycle: "h23" });
    // The absolute time in the reader's zone (Tokyo, UTC+9), how long ago beside it, the UTC instant on hover.
    await expect(received).toHaveText(new RegExp(`^${tokyo} · (just now|\\d+ min ago)$`));
    await expect(received).toHaveAttribute("title", `${iso.replace("T", " ").replace(/\.\d+Z$/, "")} UTC`);

    const eventId = row.getByTestId("event-id");
    const full = (await eventId.getAttribute("title"))!;
    await expect(eventId).toHaveText(full.slice(0, 8));
    await row.getByRole("button", { name: `Copy event id ${full}` }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(full);
  });

  test("the server renders a first visit to the log in the reader's zone, which the pages before told it", async ({
    page,
  }) => {
    const userId = uniqueUser("zone");
    await expireAuthenticator(userId);
    await signIn(page, e2eUsers.support, "/users");
    await waitForHydration(page);
    // The log's HTML as the server sends it (this context's cookies), before any script of the log has run.
    const html = await (await page.request.get(`/webhooks?userId=${userId}`)).text();
    const [, iso, shown] = /<time datetime="([^"]+)"[^>]*>([^<]+)<\/time>/i.exec(html) ?? [];
    expect(iso, "a received time in the served log").toBeTruthy();
    expect(shown).toBe(new Date(iso!).toLocaleTimeString("en-GB", { timeZone: "Asia/Tokyo", hourCycle: "h23" }));
  });

  test("a row shows where its forwards stand, each destination's in its title", async ({ page }) => {
    const receiver = http.createServer((request, response) => {
      request.resume();
      request.on("end", () => response.writeHead(204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const name = `Rows ${Date.now()}`;
    await signIn(page, e2eUsers.admin, "/destinations");
    try {
      await addDestination(page, name, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`);
      await expect(page.getByTestId(`destination-${name}`)).toBeVisible();
      const userId = uniqueUser("forwards");
      await expireAuthenticator(userId);
      await page.goto(`/webhooks?userId=${userId}`);
      const forwards = rowFor(page, userId).getByTestId("event-forwards");
      await expect(async () => {
        await page.reload();
        await expect(forwards).toContainText("Delivered", { timeout: 1000 });
      }).toPass({ timeout: 20_000 });
      await expect(forwards.locator("[title]")).toHaveAttribute(
        "title",
        new RegExp(`${name}: delivered \\(1 attempt\\)`),
      );
    } finally {
      await page.goto("/destinations");
      await removeDestination(page, name);
      receiver.close();
    }
  });

  test("on a phone the filters fold behind Filters (n) and each row is a card that keeps method and delay", async ({
    page,
  }) => {
    const userId = uniqueUser("phone");
    await expireAuthenticator(userId);
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, e2eUsers.support, `/webhooks?userId=${userId}`);
    const bar = page.getByRole("search", { name: "Filter webhook events" });
    const toggle = bar.getByRole("button", { name: "Filters (1)" });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(bar.getByLabel("Method")).toBeHidden();
    await toggle.click();
    await expect(bar.getByLabel("Method")).toBeVisible();
    await bar.getByLabel("Method").selectOption("PUSH");
    await expect(page).toHaveURL(/verificationMethod=PUSH/);
    await expect(bar.getByRole("button", { name: "Filters (2)" })).toBeVisible();

    const row = rowFor(page, userId);
    await expect(row).toHaveCSS("display", "grid");
    await expect(row.getByTestId("event-method")).toBeVisible();
    await expect(row.getByTestId("event-method")).toContainText("PUSH");
    await expect(row.getByTestId("event-delay")).toBeVisible();
    await expect(row.getByTestId("event-forwards")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
