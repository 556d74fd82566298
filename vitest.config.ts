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
    // than the machine has cores: a file spends much of its time waiting on the database, a child process
    // or a timer, which the extra file fills. Measured on two cores (vitest run, PGlite, 92 files): child
    // processes with two at once 173 s, worker threads with two 133 s, with three 116 s (a thread starts
    // faster than a process, and the extra file keeps both cores busy).
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
    // and the environment it found (lib/testing/file-state.ts): a new thread per file loaded the
    // packages again each time (drizzle-orm 12.9 s, zod 9.5 s, PGlite, jose, next-auth…: 32 of the run's
    // 46.5 s of import time, measured), and the run took 100–117 s and 190–225 core-seconds against 72–82
    // s and 135–153 shared (PGlite, two cores, two runs each, side by side; on PostgreSQL 70 s and 124
    // core-seconds against 55–61 s and 92–113). A file that replaces a module or starts the
    // console's background jobs gets a thread of its own (lib/testing/thread-sharing.ts).
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
