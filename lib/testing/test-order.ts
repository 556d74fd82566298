import path from "node:path";

import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The test files that take longest, slowest first (seconds in CI's PGlite run, two cores). Vitest starts
 * files in its order as threads come free and orders them by their last durations, but a clean clone
 * has none, and then it goes by file size: worker.test.ts, short and slow, started last and ran alone
 * for the last 6–9 s. A file missing from here only starts later; one that is no longer slow costs
 * nothing.
 */
export const slowestTestFiles = [
  "lib/webhooks/export-rows.test.ts", // 29 s: 100k events streamed
  "lib/auth/sign-in.test.ts", // 11 s
  "lib/auth/api-tokens.test.ts", // 16 s on a slower machine, most of it refused tokens' one-second waits
  "lib/auth/api-token-throttle.test.ts", // 15 s on a slower machine, the same
  "lib/webhooks/query-plans.test.ts", // 11 s
  "lib/destinations/replay-queue.test.ts", // 10 s here: replays queued in chunks
  "lib/destinations/worker.test.ts", // 9 s, waiting on a blocked event loop
  "lib/auth/throttle.test.ts", // 8 s
  "lib/destinations/isolation.test.ts", // 8 s here: a hanging destination, a rate cap
  "lib/webhooks/test-event.test.ts", // 5 s, waiting out a timeout
];

/** Vitest's own order, with the slowest files (slowestTestFiles) moved to the front. */
export class SlowestFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = slowestTestFiles.indexOf(path.relative(file.project.config.root, file.moduleId));
      return index < 0 ? slowestTestFiles.length : index;
    };
    // Array.prototype.sort is stable: the other files keep Vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
