/** Plays the tour's steps (./steps.ts): captions, pauses for the video, and the pictures of each variant. */
import fs from "node:fs";
import path from "node:path";

import type { Page } from "@playwright/test";

import { firstVisible } from "./page";
import { TOUR_VARIANTS, TOUR_VIEWPORT, type TourContext, type TourStep, type TourVariant } from "./step";
import { TOUR_STEPS } from "./steps";

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

export type TourReport = {
  screenshots: string[];
  skipped: Array<{ step: string; reason: string }>;
  notes: Array<{ step: string; note: string }>;
};

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
  await page.waitForFunction((wanted) => document.documentElement.classList.contains("dark") === wanted, dark, {
    timeout: 5_000,
  });
  // Two frames for layout, then a moment for what redraws on resize.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  if (step.settleMs) await page.waitForTimeout(step.settleMs);
}

/**
 * Shows the page from its top, unless what the step is about starts too low to be seen above the caption:
 * then it is scrolled to the middle.
 */
async function frame(page: Page, step: TourStep): Promise<void> {
  // The pointer in a corner, so no link shows the hover of the last click (the sign-in button's place).
  const size = page.viewportSize();
  if (size) await page.mouse.move(size.width - 1, size.height - 1);
  // "instant": a page may scroll smoothly, and the picture must not be taken on the way.
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
  if (!step.inView) return;
  // Short: the part may re-render as the layout changes; a picture of the page's top is no failure.
  await firstVisible(step.inView(page))
    .evaluate(
      (element) => {
        // Below the window's upper 60 %: the caption at the bottom would hide most of it.
        if (element.getBoundingClientRect().top > window.innerHeight * 0.6)
          element.scrollIntoView({ block: "center", behavior: "instant" });
      },
      undefined,
      { timeout: 2_000 },
    )
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
  const {
    context,
    screenshotDir,
    variants = TOUR_VARIANTS,
    onePicturePerStep = false,
    wholePages = true,
    pauseMs = 0,
    log,
  } = options;
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
