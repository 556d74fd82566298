import { defineConfig } from "vitest/config";
import os from "node:os";
import path from "node:path";
import { scaled } from "./lib/testing/timeouts";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "lib/testing/server-only-stub.ts"),
    },
  },
  test: {
    include: ["{lib,emulator,scripts,app,tooling}/**/*.test.ts", "docs/**/*.test.ts"],
    environment: "node",
    globalSetup: ["lib/testing/global-setup.ts"],
    // Stretched by TEST_TIMEOUT_SCALE where a run gets little CPU (lib/testing/timeouts.ts).
    testTimeout: scaled(30_000),
    hookTimeout: scaled(60_000),
    // Integration tests share one database per file; files run side by side in worker threads, one more
    // than the machine has cores: a file spends much of its time waiting on the database, a child process
    // or a timer, which the extra file fills. Measured on two cores (vitest run, PGlite, 92 files): child
    // processes with two at once 173 s, worker threads with two 133 s, with three 116 s (a thread starts
    // faster than a process, and the extra file keeps both cores busy).
    pool: "threads",
    maxWorkers: os.availableParallelism() + 1,
    env: {
      NODE_ENV: "test",
      // What next.config.js's experimental.authInterrupts sets in the app, so forbidden() works in tests.
      __NEXT_EXPERIMENTAL_AUTH_INTERRUPTS: "true",
      NEXTAUTH_SECRET: "vitest-secret-vitest-secret-vitest-secret",
      NEXTAUTH_URL: "http://127.0.0.1:3000",
      CONSOLE_ENCRYPTION_KEY: Buffer.alloc(32, 42).toString("base64"),
      CONSOLE_DATA_DIR: ".data/vitest",
    },
  },
});
