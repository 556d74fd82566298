import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { testFilesNeedingOwnThread } from "./thread-sharing";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "thread-sharing-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

// Written so that this file does not itself read as one that needs a thread of its own.
const viCall = (name: string, argument: string) => `vi.${name}(${JSON.stringify(argument)});`;
const startUpCall = ["await startUp", "();"].join("");

function plant(file: string, text: string) {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
}

describe("testFilesNeedingOwnThread", () => {
  it("names the files that replace a module or start the background jobs, and no other", () => {
    plant("lib/a/mocks.test.ts", viCall("mock", "next/cache"));
    plant("lib/a/late-mock.test.ts", viCall("doMock", "./x"));
    plant("lib/startup.test.ts", startUpCall);
    plant("lib/a/plain.test.ts", `it("adds", () => expect(1 + 1).toBe(2));`);
    plant("lib/a/spies.test.ts", viCall("spyOn", "console") + viCall("fn", ""));
    plant("lib/a/helper.ts", viCall("mock", "not a test file"));
    expect(testFilesNeedingOwnThread(root).sort()).toEqual([
      "lib/a/late-mock.test.ts",
      "lib/a/mocks.test.ts",
      "lib/startup.test.ts",
    ]);
  });

  it("writes a folder name in parentheses as a glob that matches it", () => {
    plant("app/(console)/team/actions.test.ts", viCall("mock", "@/lib/auth/session"));
    expect(testFilesNeedingOwnThread(root)).toContain("app/\\(console\\)/team/actions.test.ts");
  });

  it("finds this repository's own: the server actions' tests and the start-up's", () => {
    const own = testFilesNeedingOwnThread(path.resolve(import.meta.dirname, "../.."));
    expect(own).toContain("lib/startup.test.ts");
    expect(own).toContain("lib/team/actions.test.ts");
    expect(own).not.toContain("lib/testing/thread-sharing.test.ts");
  });
});
