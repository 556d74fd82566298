import { expect, test, type Page, type TestInfo } from "@playwright/test";

import type { TenantApp } from "../tooling/tenant-app";
import { connectionIdOf } from "../tooling/tour/page";
import { playTour } from "../tooling/tour/play";
import { TOUR_VARIANTS } from "../tooling/tour/step";
import { TOUR_STEPS } from "../tooling/tour/steps";
import { signIn } from "./support/auth";
import { addDestination, removeDestination, startAcmeTenantApp } from "./support/destinations";
import { emulatorJson } from "./support/emulator";
import { e2eUsers } from "./support/env";

/**
 * `npm run tour`'s steps (tooling/tour/) against the e2e stack: no video, no pauses, one picture per step with the
 * variants (themes, 1280×800 and 390×844) in turn, to keep CI quick. Every step must play: `npm run tour` skips a
 * step whose data is missing (a demo goes on), this test fails on it.
 */

// Room for a machine shared with other work: the alert steps wait for evaluations (docs/performance.md, "The
// end-to-end suite").
test.setTimeout(180_000);

test("the tour plays every step, in both themes, at 1280×800 and 390×844", async ({ page, browser }, testInfo) => {
  // As in the demo, Acme forwards to its own application (the forwarding steps show it), added first so
  // that the story's events are forwarded.
  const tenantApp = await startAcmeTenantApp();
  const setup = await browser.newContext();
  const admin = await setup.newPage();
  await signIn(admin, e2eUsers.admin, "/destinations");
  await addDestination(admin, "Tenant app", `${tenantApp.url}/tenants/acme`);
  await expect(admin.getByTestId("destination-Tenant app")).toBeVisible();
  // As in `npm run tour`, Acme's destination alert opens at its first failed attempt (the alert steps).
  await setDestinationThreshold(admin, "0");
  try {
    await playEveryStep(page, tenantApp, testInfo);
    await admin.goto("/destinations");
    await removeDestination(admin, "Tenant app");
  } finally {
    await setDestinationThreshold(admin, "");
    await setup.close();
    await tenantApp.close();
  }
});

/** Acme's "Destination failing for" threshold, on the Alerts page ("" for the default). */
async function setDestinationThreshold(admin: Page, minutes: string) {
  const acmeId = await connectionIdOf(admin, "Acme");
  expect(acmeId).not.toBeNull();
  await admin.goto(`/alerts?connectionId=${acmeId}`);
  const form = admin.getByRole("form", { name: "Thresholds of Acme" });
  await form.getByLabel("Destination failing for").fill(minutes);
  await form.getByRole("button", { name: "Save thresholds" }).click();
  await expect(admin.getByText("Saved the thresholds of Acme")).toBeVisible();
}

async function playEveryStep(page: Page, tenantApp: TenantApp, testInfo: TestInfo) {
  // A bounded story played at once on the virtual clock: live events, the rotated-key burst, the outage and its
  // retries.
  await emulatorJson("POST", "story", { durationSeconds: 60 });
  try {
    for (let second = 0; second < 150; second += 10) await emulatorJson("POST", "clock/advance", { seconds: 10 });
  } finally {
    await emulatorJson("DELETE", "story");
  }

  const report = await playTour(page, {
    context: { user: e2eUsers.admin, connectionName: "Acme", tenantApp },
    screenshotDir: testInfo.outputPath("tour"),
    onePicturePerStep: true,
    wholePages: false,
    log: (line) => testInfo.annotations.push({ type: "tour", description: line.trim() }),
  });
  expect(report.skipped).toEqual([]);
  expect(report.screenshots).toHaveLength(TOUR_STEPS.length);
  const seen = new Set(
    report.screenshots.map((file) => TOUR_VARIANTS.find((v) => file.endsWith(`-${v.name}.png`))?.name),
  );
  expect([...seen].sort()).toEqual(TOUR_VARIANTS.map((v) => v.name).sort());
  // The last step leaves the theme as it found it: the system's.
  await expect(page.getByRole("group", { name: "Theme" }).getByRole("radio", { name: "System" }).first()).toBeChecked();
}
