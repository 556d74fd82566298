/** Reaching and waiting for the console's pages, the helpers of the tour's steps (./steps.ts). */
import type { Locator, Page } from "@playwright/test";

import type { StepResult } from "./step";

export const WAIT_MS = 15_000;

/**
 * The first of the visible matches: while a streamed page is revealed a hidden copy of its heading sits
 * beside loading.tsx's, and some lists have a phone and a desktop layout, one of them hidden.
 */
export const firstVisible = (locator: Locator) => locator.filter({ visible: true }).first();

/** True when the locator shows up within the wait; a missing part of the console is not an error here. */
export async function appears(locator: Locator, timeout = WAIT_MS): Promise<boolean> {
  return firstVisible(locator)
    .waitFor({ state: "visible", timeout })
    .then(
      () => true,
      () => false,
    );
}

/**
 * Waits until nothing on the page is still loading: no streamed section (aria-busy) and no skeleton
 * (the pulsing placeholders, e.g. of the overview's charts, whose code arrives after the page paints).
 */
export async function settled(page: Page): Promise<void> {
  for (const loading of [page.locator("[aria-busy=true]"), page.locator("main .animate-pulse")]) {
    await loading
      .first()
      .waitFor({ state: "detached", timeout: WAIT_MS })
      .catch(() => {});
  }
}

/**
 * Clicks a row of a list and waits for its drawer. The click is tried again (three times in all): one
 * that lands before the page has hydrated opens nothing.
 */
export async function openDrawer(row: Locator, drawer: Locator): Promise<boolean> {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (!(await firstVisible(drawer).isVisible()))
      await firstVisible(row)
        .click({ timeout: 5_000 })
        .catch(() => {});
    if (await appears(drawer, 5_000)) return true;
  }
  return false;
}

export const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name, exact: true });

export async function openPage(page: Page, url: string, title: string): Promise<StepResult> {
  // Signing in lands on the overview already: loading it again would only cost time.
  const current = new URL(page.url());
  if (`${current.pathname}${current.search}` !== url) await page.goto(url);
  if (!(await appears(heading(page, title)))) return { skipped: `no “${title}” heading at ${url}` };
  await settled(page);
}

/**
 * Picks a theme with the control. The radio itself is visually hidden inside its label, whose icon takes
 * the pointer: the click lands on the label (force skips the check that the input receives it).
 */
export async function chooseTheme(control: Locator, name: "Light" | "Dark" | "System"): Promise<void> {
  await control.getByRole("radio", { name, exact: true }).check({ force: true });
}

/** The theme control of the current layout: in the header at 1280, in the menu on a phone. */
export async function themeControl(page: Page, viewportWidth: number): Promise<Locator> {
  if (viewportWidth < 768) {
    const menu = page.getByRole("button", { name: "Menu" });
    if ((await menu.getAttribute("aria-expanded")) !== "true") await menu.click();
  }
  return page.getByRole("group", { name: "Theme" }).filter({ visible: true });
}

/**
 * What came back from "Send a test event" (stored, or refused in words): the card's status region once it
 * says something other than that it is sending.
 */
export const testEventAnswer = (page: Page) =>
  page
    .getByTestId("test-event-result")
    .filter({ hasText: /\S/ })
    .filter({ hasNotText: /Sending/ });

/** A connection's id, from the address of its page (reached from the Connections page by its name). */
export async function connectionIdOf(page: Page, connectionName: string): Promise<string | null> {
  await page.goto("/connections");
  const link = page.getByRole("link", { name: connectionName, exact: true });
  if (!(await appears(link))) return null;
  await firstVisible(link).click();
  if (!(await appears(heading(page, connectionName)))) return null;
  return new URL(page.url()).pathname.split("/").pop() ?? null;
}

/**
 * Sends the connection's latest event to its destination again, from the event's drawer in the log (the
 * tour's connection forwards to one destination, its own application).
 */
export async function resendLatestEvent(page: Page, connectionName: string): Promise<StepResult> {
  const connectionId = await connectionIdOf(page, connectionName);
  if (!connectionId) return { skipped: `no page of the connection ${connectionName}` };
  const missing = await openPage(page, `/webhooks?test=exclude&connectionId=${connectionId}`, "Webhooks");
  if (missing) return missing;
  const row = page.getByTestId("webhook-event-row");
  if (!(await appears(row))) return { skipped: `no event of ${connectionName} in the log` };
  if (!(await openDrawer(row, page.getByRole("dialog", { name: "Event details" }))))
    return { skipped: "the event drawer did not open" };
  const resend = page.getByTestId("event-forwards").getByRole("button", { name: "Resend" });
  if (!(await appears(resend))) return { skipped: "the event's drawer has no Resend button" };
  await firstVisible(resend).click();
  if (!(await appears(page.getByText(/^Sending it to .+ again\.$/)))) return { skipped: "Resend said nothing" };
  await page.keyboard.press("Escape");
}

/** An alert's card on the Alerts page, by its heading ("Destination failing on Acme"). */
export const alertCard = (page: Page, title: string) =>
  page.getByTestId("alert").filter({ has: page.getByRole("heading", { name: title, exact: true }) });

/**
 * Opens the Alerts page (with `query`, its filters) again and again until, the page settled, `shows` is
 * true: the evaluation runs on its own schedule (every 10 to 15 s in the demo and the e2e stack).
 */
export async function reloadAlertsUntil(
  page: Page,
  query: string,
  shows: () => Promise<boolean>,
  timeoutMs = 60_000,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  do {
    await page.goto(`/alerts?${query}`);
    if (await appears(heading(page, "Alerts"))) {
      await settled(page);
      if (await shows()) return true;
    }
    await page.waitForTimeout(2_000);
  } while (Date.now() < deadline);
  return false;
}
