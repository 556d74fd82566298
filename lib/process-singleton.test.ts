import { afterEach, describe, expect, it, vi } from "vitest";

import { forgetProcessSingleton, processSingleton, processSingletonKey } from "./process-singleton";
import { snapshotProcessState } from "./testing/process-state";

const keys = ["test.counter", "test.other", "test.nothing"];

describe("processSingleton", () => {
  afterEach(() => keys.forEach(forgetProcessSingleton));

  it("makes the value once and answers the same one after", () => {
    const init = vi.fn(() => ({ count: 0 }));
    const first = processSingleton("test.counter", init);
    first.count += 1;
    expect(processSingleton("test.counter", init)).toBe(first);
    expect(init).toHaveBeenCalledTimes(1);
  });

  it("keeps a value that is undefined without making it again", () => {
    const init = vi.fn(() => undefined);
    processSingleton("test.nothing", init);
    processSingleton("test.nothing", init);
    expect(init).toHaveBeenCalledTimes(1);
  });

  it("keeps each key's value apart", () => {
    expect(processSingleton("test.counter", () => 1)).toBe(1);
    expect(processSingleton("test.other", () => 2)).toBe(2);
  });

  it("keeps the value on globalThis under the shared symbol, where another copy of a module finds it", () => {
    const value = processSingleton("test.counter", () => new Set<string>());
    expect(processSingletonKey("test.counter")).toBe(Symbol.for("tenant-console.test.counter"));
    const holder = globalThis as unknown as Record<symbol, { value: unknown }>;
    expect(holder[Symbol.for("tenant-console.test.counter")]?.value).toBe(value);
  });

  it("makes the value anew once it is forgotten", () => {
    const first = processSingleton("test.counter", () => ({}));
    forgetProcessSingleton("test.counter");
    expect(processSingleton("test.counter", () => ({}))).not.toBe(first);
  });

  it("makes nothing when init throws, so the next call tries again", () => {
    expect(() =>
      processSingleton("test.counter", () => {
        throw new Error("not yet");
      }),
    ).toThrow("not yet");
    expect(processSingleton("test.counter", () => 3)).toBe(3);
  });

  it("is removed with what a test file left on globalThis", () => {
    const restore = snapshotProcessState();
    processSingleton("test.counter", () => 4);
    restore();
    expect(processSingleton("test.counter", () => 5)).toBe(5);
  });
});
