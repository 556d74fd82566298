import os from "node:os";
import path from "node:path";

import { defineConfig } from "vitest/config";

import { SlowestFilesFirst } from "./lib/testing/test-order.ts";
import { testFilesNeedingOwnThread, testFolders } from "./lib/testing/thread-sharing.ts";
import { scaled } from "./lib/testing/timeouts.ts";

const ownThreadFiles = testFilesNeedingOwnThread(import.meta.dirname);
// Vitest takes `--sequence.shuffle.files` (any order: see docs/development.md) only when no sequencer is set.
const shuffling = process.argv.some((arg) => arg.startsWith("--sequence.shuffle"));

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "lib/testing/server-only-stub.ts"),
    },
  },
  test: {
    environment: "node",
    globalSetup: ["lib/testing/global-setup.ts"],
    setupFiles: ["lib/testing/throw-deprecations.ts"],
    // Stretched by TEST_TIMEOUT_SCALE where a run gets little CPU (lib/testing/timeouts.ts).
    testTimeout: scaled(30_000),
    hookTimeout: scaled(60_000),
    // Integration tests share one database per file; files run side by side in worker threads, one more
    // than the machine has cores: a file waits much on the database, a child process or a timer, and the
    // extra file fills that time (docs/performance.md, "Tests").
    pool: "threads",
    maxWorkers: os.availableParallelism() + 1,
    // The slowest files first, so that none is left running alone at the end (lib/testing/test-order.ts).
    sequence: shuffling ? {} : { sequencer: SlowestFilesFirst },
    env: {
      NODE_ENV: "test",
      // What next.config.js's experimental.authInterrupts sets in the app, so forbidden() works in tests.
      __NEXT_EXPERIMENTAL_AUTH_INTERRUPTS: "true",
      NEXTAUTH_SECRET: "vitest-secret-vitest-secret-vitest-secret",
      NEXTAUTH_URL: "http://127.0.0.1:3000",
      CONSOLE_ENCRYPTION_KEY: Buffer.alloc(32, 42).toString("base64"),
      CONSOLE_DATA_DIR: ".data/vitest",
    },
    // Most files share worker threads (isolate: false), each still starting on fresh modules of its own
    // and the environment it found (lib/testing/file-state.ts): a thread per file loads the packages
    // again for each (docs/performance.md, "Tests"). A file that replaces a module or starts the console's
    // background jobs gets a thread of its own (lib/testing/thread-sharing.ts).
    projects: [
      { extends: true, test: { name: "own-thread", include: ownThreadFiles } },
      {
        extends: true,
        test: {
          name: "shared-thread",
          include: testFolders.map((folder) => `${folder}/**/*.test.ts`),
          exclude: ownThreadFiles,
          isolate: false,
          setupFiles: ["lib/testing/file-state.ts"],
        },
      },
    ],
  },
});
