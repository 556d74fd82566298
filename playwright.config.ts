import { defineConfig, devices } from "@playwright/test";

import { e2eEnv, e2eWorkers } from "./e2e/support/env";

/**
 * E2E runs against a production build (`next build` first), the emulator and Debian's Chromium. Two
 * workers (E2E_WORKERS=n for n) run spec files side by side, each against a stack of its own; baseURL is
 * this worker's stack (the config is loaded again in each worker).
 */
export default defineConfig({
  testDir: "./e2e",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: false,
  workers: e2eWorkers,
  // Recording a trace of every test costs a third of the suite's time (the browser screencasts and
  // snapshots each action), so none is recorded on a first run. A failed test runs once more with a
  // trace, to read with `npx playwright show-trace`; the run fails all the same (failOnFlakyTests): a
  // test that passes only on its second try is reported flaky, and CI's summary counts it failed.
  retries: 1,
  failOnFlakyTests: true,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : [["list"]],
  use: {
    baseURL: e2eEnv.consoleUrl,
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    ...devices["Desktop Chrome"],
    launchOptions: {
      executablePath: e2eEnv.chromiumPath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        // The GPU process's work (software compositing) done in the browser process: a tenth less CPU per test.
        "--in-process-gpu",
        // Every page a test leaves would stay alive in the back/forward cache, frozen, for a Back that no
        // test presses (a Back inside the console is the router's). Without it, 8 % less CPU: 96–102
        // core-s against 104–111 for 21 tests on one worker; 447 against 469 for the suite on two (one run each).
        "--disable-features=BackForwardCache",
      ],
    },
  },
});
