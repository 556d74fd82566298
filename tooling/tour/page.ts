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
    .then(() => true, () => false);
}

/**
 * Waits until nothing on the page is still loading: no streamed section (aria-busy) and no skeleton
 * (the pulsing placeholders, e.g. of the overview's charts, whose code arrives after the page paints).
 */
export async function settled(page: Page): Promise<void> {
  for (const loading of [page.locator("[aria-busy=true]"), page.locator("main .animate-pulse")]) {
    await loading.first().waitFor({ state: "detached", timeout: WAIT_MS }).catch(() => {});
  }
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
export const testEventAnswer = (page: Page) => page.getByTestId("test-event-result").filter({ hasText: /\S/ }).filter({ hasNotText: /Sending/ });
