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
  // A trace of every test is costly (docs/performance.md, "The end-to-end suite"): a failed test runs once more
  // with one, and the run fails all the same (failOnFlakyTests), so passing on the second try is a failure.
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
        // The GPU process's work (software compositing) done in the browser process: less CPU per test.
        "--in-process-gpu",
        // Every page a test leaves would stay alive in the back/forward cache, frozen, for a Back that no test
        // presses (a Back inside the console is the router's). Figures: docs/performance.md, "The end-to-end suite".
        "--disable-features=BackForwardCache",
      ],
    },
  },
});
