import path from "node:path";

import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The test files that take longest, slowest first: on a clean clone Vitest, with no durations, goes by file size and
 * would start a short, slow file last. One missing from here only starts later; one no longer slow costs nothing.
 * Their times: docs/performance.md, "Test databases".
 */
export const slowestTestFiles = [
  "lib/webhooks/export-rows.test.ts", // 100k events streamed
  "lib/auth/sign-in.test.ts",
  "lib/auth/api-tokens.test.ts", // refused tokens' one-second waits
  "lib/auth/api-token-throttle.test.ts", // the same
  "lib/webhooks/query-plans.test.ts",
  "lib/destinations/replay-queue.test.ts", // replays queued in chunks
  "lib/destinations/worker.test.ts", // waiting on a blocked event loop
  "lib/auth/throttle.test.ts",
  "lib/destinations/isolation.test.ts", // a hanging destination, a rate cap
  "lib/webhooks/test-event.test.ts", // waiting out a timeout
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
