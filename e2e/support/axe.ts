import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** WCAG 2.x A and AA (and best-practice) rules; only serious and critical findings fail a test. */
export async function expectNoSeriousA11yViolations(page: Page, state = page.url()) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const described = serious.map((v) => `${state}: ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")})`);
  expect(described).toEqual([]);
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
