import { defineConfig } from "vitest/config";
import os from "node:os";
import path from "node:path";

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
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests share one database per file; files run in parallel processes, at least two: a
    // file spends much of its time waiting on a child process or the database, so on two cores (where
    // Vitest's default is one) a second file at once takes the run from about 4.3 to 3 minutes.
    pool: "forks",
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
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
