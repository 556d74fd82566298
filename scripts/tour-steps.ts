import fs from "node:fs";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";

/**
 * The tour's steps, shared by `npm run tour` (scripts/tour.ts: the demo stack, a video, docs/tour/) and
 * e2e/tour.spec.ts (the e2e stack, screenshots into the test's output). Each step reaches a state of
 * the console with role-based locators, shows a short caption in an overlay injected into the page, and
 * is photographed in each variant (both themes, 1280×800 and 390×844). A step whose part of the console
 * is missing in this build is skipped with a note instead of failing the tour.
 */
export type TourVariant = { name: string; viewport: { width: number; height: number }; scheme: "light" | "dark" };

export const TOUR_VARIANTS: readonly TourVariant[] = [
  { name: "1280-light", viewport: { width: 1280, height: 800 }, scheme: "light" },
  { name: "1280-dark", viewport: { width: 1280, height: 800 }, scheme: "dark" },
  { name: "390-light", viewport: { width: 390, height: 844 }, scheme: "light" },
  { name: "390-dark", viewport: { width: 390, height: 844 }, scheme: "dark" },
];
export const TOUR_VIEWPORT = TOUR_VARIANTS[0]!.viewport;

export type TourUser = { email: string; password: string };
export type TourContext = { user: TourUser; connectionName: string };

/** A step's outcome: done; done without part of it (a note); or skipped, with the reason in words. */
type StepResult = { skipped: string } | { note: string } | void;

export type TourStep = {
  slug: string;
  caption: string;
  /** Reaches the step's state from wherever the previous step left the page. */
  run(page: Page, context: TourContext): Promise<StepResult>;
  /** Puts the page in a variant beyond viewport and colour scheme (the theme step uses the control itself). */
  showVariant?(page: Page, variant: TourVariant): Promise<void>;
  /** Pictures of the whole page at 1280, not only the window (the overview's charts are below the fold). */
  fullPage?: boolean;
  /** A moment after a resize, for what redraws itself later (charts). */
  settleMs?: number;
  /** What each picture must show, scrolled into view; without it, pictures show the top of the page. */
  inView?(page: Page): Locator;
  /** After its pictures: leaves the state (the sign-in step signs in). */
  leave?(page: Page, context: TourContext): Promise<void>;
};

const WAIT_MS = 15_000;

/**
 * The first of the visible matches: while a streamed page is revealed a hidden copy of its heading sits
 * beside loading.tsx's, and some lists have a phone and a desktop layout, one of them hidden.
 */
const firstVisible = (locator: Locator) => locator.filter({ visible: true }).first();

/** True when the locator shows up within the wait; a missing part of the console is not an error here. */
async function appears(locator: Locator, timeout = WAIT_MS): Promise<boolean> {
  return firstVisible(locator)
    .waitFor({ state: "visible", timeout })
    .then(() => true, () => false);
}

/**
 * Waits until nothing on the page is still loading: no streamed section (aria-busy) and no skeleton
 * (the pulsing placeholders, e.g. of the overview's charts, whose code arrives after the page paints).
 */
async function settled(page: Page): Promise<void> {
  for (const loading of [page.locator("[aria-busy=true]"), page.locator("main .animate-pulse")]) {
    await loading.first().waitFor({ state: "detached", timeout: WAIT_MS }).catch(() => {});
  }
}

const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name, exact: true });

async function openPage(page: Page, url: string, title: string): Promise<StepResult> {
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
async function chooseTheme(control: Locator, name: "Light" | "Dark" | "System"): Promise<void> {
  await control.getByRole("radio", { name, exact: true }).check({ force: true });
}

/** The theme control of the current layout: in the header at 1280, in the menu on a phone. */
async function themeControl(page: Page, viewportWidth: number): Promise<Locator> {
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
const testEventAnswer = (page: Page) => page.getByTestId("test-event-result").filter({ hasText: /\S/ }).filter({ hasNotText: /Sending/ });

export const TOUR_STEPS: readonly TourStep[] = [
  {
    slug: "sign-in",
    caption: "Sign in with a console account, or with single sign-on",
    async run(page, { user }) {
      await page.goto("/sign-in");
      await page.getByLabel("Email").fill(user.email);
      await page.getByLabel("Password").fill(user.password);
    },
    async leave(page) {
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      // "commit": the console's pages stream, so their load event may come late.
      await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"), { timeout: WAIT_MS, waitUntil: "commit" });
    },
  },
  {
    slug: "overview",
    caption: "The overview: every tenant's health, what expired, how late events arrive, why deliveries were refused",
    fullPage: true,
    settleMs: 300,
    run: (page) => openPage(page, "/", "Overview"),
  },
  {
    slug: "connection",
    caption: "A connection: its keys, its webhook health, and a signed test event through the public receiver URL",
    // On a phone the health card comes after the settings form.
    inView: (page) => page.getByTestId("connection-health-card"),
    async run(page, { connectionName }) {
      await page.goto("/connections");
      const link = page.getByRole("link", { name: connectionName, exact: true });
      if (!(await appears(link))) return { skipped: `no link to the connection ${connectionName} on /connections` };
      await firstVisible(link).click();
      if (!(await appears(heading(page, connectionName)))) return { skipped: `the connection page of ${connectionName} has no heading` };
      await settled(page);
      const send = page.getByRole("button", { name: "Send a test event" });
      if (!(await appears(send, 2_000))) return { note: "no “Send a test event” button in this build: the page is shown without it" };
      await firstVisible(send).click();
      if (!(await appears(testEventAnswer(page)))) return { note: "“Send a test event” showed no answer within 15 s" };
    },
  },
  {
    slug: "webhook-log",
    caption: "The webhook log: every authenticator.expired event, verified, filterable, each one in a drawer",
    async run(page) {
      const missing = await openPage(page, "/webhooks", "Webhooks");
      if (missing) return missing;
      // A real event, not the test event the connection step just sent (its row has a "Test" badge).
      const row = page.getByTestId("webhook-event-row").filter({ hasNotText: /\bTest\b/ });
      if (!(await appears(row))) return { skipped: "the webhook log has no events yet" };
      await firstVisible(row).click();
      if (!(await appears(page.getByRole("dialog", { name: "Event details" })))) return { skipped: "the event drawer did not open" };
    },
  },
  {
    slug: "rejection",
    caption: "A refused delivery, and why: here a signature made with a key the console does not hold",
    async run(page) {
      const missing = await openPage(page, "/webhooks?tab=rejections", "Webhooks");
      if (missing) return missing;
      const rows = page.getByTestId("webhook-rejection-row");
      if (!(await appears(rows))) return { skipped: "no rejections yet" };
      const badSignature = rows.filter({ hasText: "Bad signature" });
      await firstVisible((await badSignature.count()) > 0 ? badSignature : rows).click();
      if (!(await appears(page.getByRole("dialog", { name: "Rejection details" })))) return { skipped: "the rejection drawer did not open" };
    },
  },
  {
    slug: "data-points",
    caption: "Custom data points: look one up by id, keep a watch list",
    async run(page) {
      const missing = await openPage(page, "/data-points?id=dp_loyalty_tier", "Data points");
      if (missing) return missing;
      await appears(page.getByTestId("data-point-name"));
    },
  },
  {
    slug: "email-otp",
    caption: "Email OTP: the tenant's configuration, deleted only behind a typed confirmation",
    run: (page) => openPage(page, "/email-otp", "Email OTP configuration"),
  },
  {
    slug: "audit",
    caption: "The audit log: who changed what, in which connection, and how it went",
    run: (page) => openPage(page, "/audit", "Audit"),
  },
  {
    slug: "team",
    caption: "The team: roles, disabled accounts, sessions ended everywhere",
    run: (page) => openPage(page, "/team", "Team"),
  },
  {
    slug: "theme",
    caption: "Light, dark or the system's theme, remembered",
    async run(page) {
      const control = await themeControl(page, page.viewportSize()?.width ?? TOUR_VIEWPORT.width);
      if (!(await appears(control, 5_000))) return { skipped: "no Theme control in the header" };
      await chooseTheme(control, "Dark");
    },
    async showVariant(page, variant) {
      const control = await themeControl(page, variant.viewport.width);
      await chooseTheme(control, variant.scheme === "dark" ? "Dark" : "Light");
    },
    async leave(page) {
      const control = await themeControl(page, page.viewportSize()?.width ?? TOUR_VIEWPORT.width);
      await chooseTheme(control, "System");
      await page.keyboard.press("Escape");
    },
  },
];

export type TourOptions = {
  context: TourContext;
  /** Where the pictures go, named `NN-step-variant.png` so they sort in step order; none: no pictures. */
  screenshotDir?: string;
  variants?: readonly TourVariant[];
  /** One picture per step, the variants taken in turn (every one still seen), instead of every variant per step. */
  onePicturePerStep?: boolean;
  /** Whole-page pictures where a step asks for one (default true); false keeps every picture to the window. */
  wholePages?: boolean;
  /** How long each step stays on screen with its caption (for the video); 0 when only pictures are wanted. */
  pauseMs?: number;
  log: (line: string) => void;
};

export type TourReport = { screenshots: string[]; skipped: Array<{ step: string; reason: string }>; notes: Array<{ step: string; note: string }> };

const CAPTION_ID = "tour-caption";

/**
 * The caption overlay: a bar at the bottom of the page, outside the accessibility tree. It is a manual
 * popover, so it sits in the top layer, above a drawer or dialog opened before it (those are modal dialogs).
 */
async function showCaption(page: Page, text: string | null): Promise<void> {
  await page.evaluate(
    ([id, caption]) => {
      document.getElementById(id)?.remove();
      if (caption === null) return;
      const bar = document.createElement("div");
      bar.id = id;
      bar.setAttribute("aria-hidden", "true");
      bar.setAttribute("popover", "manual");
      bar.textContent = caption;
      // Set through the CSSOM: the console's CSP refuses style attributes, not this.
      Object.assign(bar.style, {
        position: "fixed",
        inset: "auto auto 16px 50%",
        margin: "0",
        transform: "translateX(-50%)",
        width: "max-content",
        maxWidth: "min(92vw, 760px)",
        padding: "8px 14px",
        border: "1px solid rgba(255, 255, 255, 0.35)",
        borderRadius: "8px",
        background: "#4338ca",
        color: "#fff",
        font: "500 14px/1.4 system-ui, sans-serif",
        textAlign: "center",
        boxShadow: "0 4px 16px rgba(0, 0, 0, 0.35)",
        pointerEvents: "none",
      });
      document.body.append(bar);
      bar.showPopover();
    },
    [CAPTION_ID, text] as const,
  );
}

/** Viewport and colour scheme of a variant; the page follows the scheme while its theme is System. */
async function showVariant(page: Page, step: TourStep, variant: TourVariant): Promise<void> {
  await page.setViewportSize(variant.viewport);
  if (step.showVariant) await step.showVariant(page, variant);
  else await page.emulateMedia({ colorScheme: variant.scheme });
  const dark = variant.scheme === "dark";
  await page.waitForFunction((wanted) => document.documentElement.classList.contains("dark") === wanted, dark, { timeout: 5_000 });
  // Two frames for layout, then a moment for what redraws on resize.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  if (step.settleMs) await page.waitForTimeout(step.settleMs);
}

/**
 * Shows the page from its top, unless what the step is about starts too low to be seen above the caption:
 * then it is scrolled to the middle.
 */
async function frame(page: Page, step: TourStep): Promise<void> {
  // "instant": a page may scroll smoothly, and the picture must not be taken on the way.
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
  if (!step.inView) return;
  // Short: the part may re-render as the layout changes; a picture of the page's top is no failure.
  await firstVisible(step.inView(page))
    .evaluate((element) => {
      if (element.getBoundingClientRect().top > window.innerHeight - 100) element.scrollIntoView({ block: "center", behavior: "instant" });
    }, undefined, { timeout: 2_000 })
    .catch(() => {});
}

/** Stays on a step for the video; on a long page, scrolls down through it halfway and back up at the end. */
async function linger(page: Page, pauseMs: number, scroll: boolean): Promise<void> {
  if (!scroll) return page.waitForTimeout(pauseMs);
  await page.waitForTimeout(pauseMs / 2);
  for (let i = 0; i < 12; i++) {
    await page.mouse.wheel(0, 250);
    await page.waitForTimeout(120);
  }
  await page.waitForTimeout(pauseMs);
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
}

/** Plays every step on `page` (already at the console's base URL) and takes its pictures. */
export async function playTour(page: Page, options: TourOptions): Promise<TourReport> {
  const { context, screenshotDir, variants = TOUR_VARIANTS, onePicturePerStep = false, wholePages = true, pauseMs = 0, log } = options;
  const report: TourReport = { screenshots: [], skipped: [], notes: [] };
  if (screenshotDir) fs.mkdirSync(screenshotDir, { recursive: true });
  await page.setViewportSize(TOUR_VIEWPORT);
  await page.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" });
  for (const [index, step] of TOUR_STEPS.entries()) {
    const number = String(index + 1).padStart(2, "0");
    const caption = `${index + 1}/${TOUR_STEPS.length} · ${step.caption}`;
    const started = performance.now();
    const took = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
    const result = await step.run(page, context);
    if (result && "skipped" in result) {
      log(`  ${number} ${step.slug}: skipped, ${result.skipped}`);
      report.skipped.push({ step: step.slug, reason: result.skipped });
      continue;
    }
    const note = result && "note" in result ? result.note : null;
    if (note) report.notes.push({ step: step.slug, note });
    await showCaption(page, caption);
    if (pauseMs > 0) await linger(page, pauseMs, step.fullPage === true);
    if (screenshotDir) {
      for (const variant of onePicturePerStep ? [variants[index % variants.length]!] : variants) {
        await showVariant(page, step, variant);
        const file = path.join(screenshotDir, `${number}-${step.slug}-${variant.name}.png`);
        const fullPage = wholePages && step.fullPage === true && variant.viewport.width >= TOUR_VIEWPORT.width;
        await frame(page, step);
        // A whole-page picture has no window bottom for the caption to sit on: it goes without.
        if (fullPage) await showCaption(page, null);
        await page.screenshot({ path: file, animations: "disabled", fullPage });
        if (fullPage) await showCaption(page, caption);
        report.screenshots.push(file);
      }
    }
    await showCaption(page, null);
    await step.leave?.(page, context);
    log(`  ${number} ${step.slug} (${took()})${note ? `: ${note}` : ""}`);
  }
  // A step runs in the variant the previous one was photographed in last; the tour ends as it began.
  await page.setViewportSize(TOUR_VIEWPORT);
  await page.emulateMedia({ colorScheme: "light" });
  return report;
}
