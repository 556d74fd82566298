import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";
import type { TestSpecification, Vitest } from "vitest/node";

import { SlowestFilesFirst, slowestTestFiles } from "./test-order";

const root = path.resolve(import.meta.dirname, "../..");

describe("SlowestFilesFirst", () => {
  it("names files that exist", () => {
    for (const file of slowestTestFiles) expect(fs.existsSync(path.join(root, file)), file).toBe(true);
  });

  it("starts the slowest files first, in their order, and the others in Vitest's (larger files first)", async () => {
    const project = { name: "shared-thread", config: { root, isolate: false, sequence: { groupOrder: 0 } } };
    const file = (name: string) => ({ project, moduleId: path.join(root, name) }) as unknown as TestSpecification;
    const sizes: Record<string, number> = {
      "lib/a.test.ts": 10,
      "lib/b.test.ts": 30,
      [slowestTestFiles[0]!]: 1,
      [slowestTestFiles[1]!]: 2,
    };
    // What BaseSequencer reads of Vitest: no durations from an earlier run (a clean clone), files' sizes.
    const vitest = {
      config: { root },
      cache: {
        getFileTestResults: () => undefined,
        getFileStats: (key: string) => ({ size: sizes[key.slice(key.indexOf(":") + 1)] }),
      },
    } as unknown as Vitest;
    const sorted = await new SlowestFilesFirst(vitest).sort(
      ["lib/a.test.ts", slowestTestFiles[1]!, "lib/b.test.ts", slowestTestFiles[0]!].map(file),
    );
    expect(sorted.map((spec) => path.relative(root, spec.moduleId))).toEqual([
      slowestTestFiles[0],
      slowestTestFiles[1],
      "lib/b.test.ts",
      "lib/a.test.ts",
    ]);
  });
});
