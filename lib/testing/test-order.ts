import path from "node:path";

import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The test files that take longest, slowest first: on a clean clone Vitest, with no durations, goes by file size and
 * would start a short, slow file last. One missing from here only starts later; one no longer slow costs nothing.
 * Their times: docs/performance.md, "Tests".
 */
export const slowestTestFiles = [
  "lib/webhooks/export-rows.test.ts",
  "lib/webhooks/query-plans.test.ts",
  "lib/auth/sign-in.test.ts",
  "lib/auth/throttle.test.ts",
  "lib/testing/import-boundaries.test.ts",
  "lib/auth/api-token-throttle.test.ts",
  "lib/destinations/isolation.test.ts",
  "scripts/destinations.test.ts",
  "lib/destinations/replay-queue.test.ts",
  "lib/testing/templates.test.ts",
  "lib/auth/sso.test.ts",
  "lib/auth/api-tokens.test.ts",
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
