import type { Locator, Page } from "@playwright/test";

/**
 * What a step of the tour is, and the variants each is photographed in (both themes, 1280×800 and 390×844); steps are
 * in ./steps.ts, the player in ./play.ts, shared by `npm run tour` and e2e/tour.spec.ts. A step whose part of the
 * console is missing in this build is skipped with a note (docs/demo.md, "Recording the tour").
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
/**
 * Who the tour signs in as, the connection it shows, and the connection's own application (where the
 * console forwards its events), which the alert steps take down and bring back.
 */
export type TourContext = { user: TourUser; connectionName: string; tenantApp: { failFor(ms: number): void } };

/** A step's outcome: done; done without part of it (a note); or skipped, with the reason in words. */
export type StepResult = { skipped: string } | { note: string } | void;

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
