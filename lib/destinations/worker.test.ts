import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { scaled } from "@/lib/testing/timeouts";

import { eventLoopLoad, giveWayToFloods, watchForFloods } from "./floods";
import { newWorkers } from "./worker";

// The worker gives way to a flood of webhooks. Fake timers drive the watch's windows and the flood's pace; the
// event loop's load is the test's own number, and one test checks the real measure on a blocked thread.

/** One window of the watch: the event loop's load in it, and whether events arrived during it. */
type Window = { load: number; events: boolean };
const full: Window = { load: 1, events: true };
const fullWithoutEvents: Window = { load: 1, events: false };
const idleWithEvents: Window = { load: 0.2, events: true };

/** Watches a new worker's floods over `windows`, one after another; answers whether it was flooded after each. */
async function floodedAfter(windows: Window[]): Promise<boolean[]> {
  const workers = newWorkers();
  let received = 0;
  let load = 0;
  const stop = watchForFloods(
    workers,
    () => received,
    () => load,
  );
  const flooded: boolean[] = [];
  try {
    for (const window of windows) {
      load = window.load;
      if (window.events) received++;
      await vi.advanceTimersToNextTimerAsync();
      flooded.push(workers.flooded);
    }
  } finally {
    stop();
  }
  return flooded;
}

const repeat = (window: Window, times: number): Window[] => Array.from({ length: times }, () => window);

describe("the flood watch", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("calls a flood from the fourth window in a row (two seconds) of a full event loop with events arriving", async () => {
    expect(await floodedAfter(repeat(full, 6))).toEqual([false, false, false, true, true, true]);
  });

  it.each([
    ["a full event loop with no events arriving", repeat(fullWithoutEvents, 6)],
    ["events arriving on an event loop that is not full", repeat(idleWithEvents, 6)],
    ["a burst shorter than two seconds", [...repeat(full, 3), ...repeat(idleWithEvents, 3)]],
    ["full windows that a quieter one interrupts", [...repeat(full, 3), idleWithEvents, ...repeat(full, 3)]],
  ])("calls no flood for %s", async (_, windows) => {
    expect(await floodedAfter(windows)).not.toContain(true);
  });

  it("ends the flood at the first window whose event loop is not full, events still arriving", async () => {
    expect((await floodedAfter([...repeat(full, 4), idleWithEvents])).slice(-2)).toEqual([true, false]);
  });
});

describe("the event loop's load", () => {
  it("measures a thread blocked since the last call as full, and one that waited on a timer as not", async () => {
    const load = eventLoopLoad();
    // Blocking the thread (Atomics.wait) is to the event loop what a long callback is, without taking a core.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    expect(load()).toBeGreaterThanOrEqual(0.9);
    // Each poll measures the 200 ms since the one before, spent on a timer: in a thread other test files share on a
    // busy machine, one such window can be half taken by their callbacks, but not every one.
    await expect.poll(() => load(), { interval: 200, timeout: scaled(5_000) }).toBeLessThan(0.5);
  });
});

describe("forwarding during a flood", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Starts giving way on `workers`; answers whether it has returned yet. */
  function giveWay(workers: ReturnType<typeof newWorkers>): () => boolean {
    let passed = false;
    void giveWayToFloods(workers).then(() => (passed = true));
    return () => passed;
  }

  it("does not wait without a flood", async () => {
    const passed = giveWay(newWorkers());
    await vi.advanceTimersByTimeAsync(0);
    expect(passed()).toBe(true);
  });

  it("lets one take through at once during a flood, and the next a second later", async () => {
    const workers = { ...newWorkers(), flooded: true };
    const first = giveWay(workers);
    await vi.advanceTimersByTimeAsync(0);
    expect(first()).toBe(true);
    const [second, third] = [giveWay(workers), giveWay(workers)];
    await vi.advanceTimersByTimeAsync(500);
    expect([second(), third()]).toEqual([false, false]);
    await vi.advanceTimersByTimeAsync(800);
    expect([second(), third()].filter(Boolean)).toHaveLength(1);
  });

  it("lets every waiting take through once the flood eases", async () => {
    const workers = { ...newWorkers(), flooded: true };
    giveWay(workers);
    const waiting = [giveWay(workers), giveWay(workers)];
    await vi.advanceTimersByTimeAsync(500);
    expect(waiting.map((passed) => passed())).toEqual([false, false]);
    workers.flooded = false;
    await vi.advanceTimersByTimeAsync(500);
    expect(waiting.map((passed) => passed())).toEqual([true, true]);
  });
});
