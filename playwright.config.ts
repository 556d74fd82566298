import { defineConfig, devices } from "@playwright/test";
import { e2eEnv, e2eWorkers } from "./e2e/support/env";

/**
 * E2E runs against a production build (`next build` first), the emulator and Debian's Chromium. With
 * E2E_WORKERS=n (npm test uses 2) n workers run spec files side by side, each against a stack of its own;
 * baseURL is this worker's stack (the config is loaded again in each worker).
 */
export default defineConfig({
  testDir: "./e2e",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: false,
  workers: e2eWorkers,
  retries: 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : [["list"]],
  use: {
    baseURL: e2eEnv.consoleUrl,
    trace: "retain-on-failure",
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
      ],
    },
  },
});
