import { expect, type Page } from "@playwright/test";
import axe from "axe-core";

export type ColorScheme = "light" | "dark";

/** The rules whose outcome a theme can change: the others read the same DOM in either theme. */
const colourRules = ["color-contrast", "link-in-text-block"];

type AxeScan = {
  /** A selector of the part to scan (the whole document by default). */
  include?: string;
  runOnly?: axe.RunOptions["runOnly"];
};

/**
 * The violations axe-core finds in the page at rest: once its finite animations and transitions have
 * finished (a button fading in from disabled reads as low contrast half-way). One that starts during the
 * scan (an island hydrating late enables its buttons) makes it wait and scan again. axe is put in the
 * page once per document: @axe-core/playwright compiled its 550 kB source twice per scan.
 */
export async function axeViolations(page: Page, { include, runOnly }: AxeScan = {}): Promise<axe.Result[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  return page.evaluate(
    async ({ include, runOnly }) => {
      const { axe } = window as unknown as { axe: typeof import("axe-core") };
      // A skeleton's pulse never ends; a transition or an opening dialog's animation does.
      const isFinite = (a: Animation) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime ?? Infinity));
      const settle = () =>
        Promise.all(
          document
            .getAnimations()
            .filter(isFinite)
            .map((a) => a.finished.catch(() => undefined)),
        );
      let moved = false;
      const noteMotion = () => (moved ||= document.getAnimations().some(isFinite));
      for (let scan = 1; ; scan++) {
        await settle();
        moved = false;
        document.addEventListener("transitionrun", noteMotion, true);
        document.addEventListener("animationstart", noteMotion, true);
        // Only violations are read: axe then skips detailing every passing node.
        const results = await axe.run(include ? { include: [include] } : document, {
          resultTypes: ["violations"],
          ...(runOnly ? { runOnly } : {}),
        });
        document.removeEventListener("transitionrun", noteMotion, true);
        document.removeEventListener("animationstart", noteMotion, true);
        noteMotion(); // a change made at the scan's end has no event yet; getAnimations() sees it
        if (!moved || scan === 5) return results.violations;
      }
    },
    { include, runOnly },
  );
}

/**
 * WCAG 2.x A and AA (and best-practice) rules; only serious and critical findings fail a test. By default
 * the page is scanned as it stands (light). With `schemes` ["light", "dark"] (e2e/accessibility.spec.ts) it
 * is scanned in the light theme, then switched to the dark one in place (no second navigation: a state
 * that took clicks to reach is scanned as it is) and scanned again for the colour rules, then put back.
 */
export async function expectNoSeriousA11yViolations(
  page: Page,
  state = page.url(),
  schemes: readonly ColorScheme[] = ["light"],
) {
  // At rest includes the page's <title>: Next streams a dynamic page's metadata after its first content
  // (to browsers; crawlers get it up front), so on a loaded machine the heading can show before the title
  // arrives. A page that never gets one still fails here.
  await expect(page, `${state}: the page's title`).toHaveTitle(/\S/);
  const switching = schemes.includes("dark");
  const described: string[] = [];
  for (const scheme of schemes) {
    if (switching) await showColorScheme(page, scheme);
    const violations = await axeViolations(
      page,
      scheme === "dark" ? { runOnly: { type: "rule", values: colourRules } } : {},
    );
    const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    const where = switching ? `${state} (${scheme})` : state;
    described.push(
      ...serious.map(
        (v) =>
          `${where}: ${v.id}: ${v.help} (${v.nodes
            .map((n) => n.target.join(" "))
            .slice(0, 3)
            .join(", ")})`,
      ),
    );
  }
  if (switching) await showColorScheme(page, "light");
  expect(described).toEqual([]);
}

/**
 * Puts the page in the light or dark theme through the system's colour scheme, which the console's
 * default theme (System) follows once hydrated, and waits until <html> carries the theme's class. A page
 * whose reader picked Light or Dark does not follow it: this waits in vain there.
 */
export async function showColorScheme(page: Page, scheme: ColorScheme) {
  await page.emulateMedia({ colorScheme: scheme });
  const html = expect(page.locator("html"), `the page shows the ${scheme} theme (its theme is System)`);
  if (scheme === "dark") await html.toHaveClass(/\bdark\b/);
  else await html.not.toHaveClass(/\bdark\b/);
}

/** Neither the page nor any table's own scroll box is wider than the window (nothing scrolls sideways). */
export async function sidewaysOverflow(page: Page, { tables }: { tables: boolean }) {
  return page.evaluate((checkTables) => {
    const root = document.documentElement;
    const found: string[] = [];
    if (root.scrollWidth > root.clientWidth) found.push(`page: ${root.scrollWidth} px in ${root.clientWidth} px`);
    if (checkTables) {
      for (const table of document.querySelectorAll("table")) {
        const box = table.parentElement;
        if (box && box.scrollWidth > box.clientWidth + 1) {
          found.push(`table "${table.caption?.textContent ?? ""}": ${box.scrollWidth} px in ${box.clientWidth} px`);
        }
      }
    }
    return found;
  }, tables);
}
