import { afterEach, describe, expect, it } from "vitest";

import { snapshotProcessState } from "./process-state";

const probe = globalThis as unknown as Record<string, unknown>;
const variables = ["PROCESS_STATE_TEST_ADDED", "PROCESS_STATE_TEST_CHANGED", "PROCESS_STATE_TEST_REMOVED"];

describe("snapshotProcessState", () => {
  afterEach(() => {
    for (const name of variables) delete process.env[name];
    delete probe.__processStateTestAdded;
    delete probe.__processStateTestKept;
  });

  it("puts back every environment variable a file added, changed or removed", () => {
    process.env.PROCESS_STATE_TEST_CHANGED = "before";
    process.env.PROCESS_STATE_TEST_REMOVED = "here";
    const restore = snapshotProcessState();
    process.env.PROCESS_STATE_TEST_ADDED = "new";
    process.env.PROCESS_STATE_TEST_CHANGED = "after";
    delete process.env.PROCESS_STATE_TEST_REMOVED;
    restore();
    expect(process.env.PROCESS_STATE_TEST_ADDED).toBeUndefined();
    expect(process.env.PROCESS_STATE_TEST_CHANGED).toBe("before");
    expect(process.env.PROCESS_STATE_TEST_REMOVED).toBe("here");
  });

  it("removes what a file put on globalThis (a database handle, a job's state) and keeps what was there", () => {
    probe.__processStateTestKept = 1;
    const restore = snapshotProcessState();
    probe.__processStateTestAdded = { open: true };
    const symbol = Symbol("added");
    Reflect.set(globalThis, symbol, true);
    restore();
    expect("__processStateTestAdded" in probe).toBe(false);
    expect(Reflect.ownKeys(globalThis)).not.toContain(symbol);
    expect(probe.__processStateTestKept).toBe(1);
  });
});
