import { describe, expect, it } from "vitest";

import { giveWayToFloods, newWorkers, watchForFloods } from "./worker";

// The lanes give way to a flood of webhooks: told by this process's real event loop, which the test
// keeps busy (or not) itself.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const blocked = new Int32Array(new SharedArrayBuffer(4));

/**
 * Keeps the event loop busy for `ms`, in slices that let timers run, calling `each` once per slice. A
 * slice blocks the thread (Atomics.wait) as a long callback would: to the event loop's utilisation it
 * is the same as computing, without taking a core from the files running beside this one (spinning
 * took 5.8 core-seconds a run).
 */
async function busyFor(ms: number, each: () => void = () => {}) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    each();
    Atomics.wait(blocked, 0, 0, 20);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe("forwarding workers in a flood of webhooks", () => {
  it("call a flood two seconds of a full event loop with events arriving: not a shorter burst, nor either alone", async () => {
    let received = 0;
    const workers = newWorkers();
    const stop = watchForFloods(workers, () => received);
    try {
      await busyFor(2_800);
      expect(workers.flooded).toBe(false);
      await sleep(600);
      await busyFor(1_200, () => received++);
      expect(workers.flooded).toBe(false);
      await busyFor(1_800, () => received++);
      expect(workers.flooded).toBe(true);
      const arriving = setInterval(() => received++, 10);
      await sleep(1_200);
      clearInterval(arriving);
      expect(workers.flooded).toBe(false);
    } finally {
      stop();
    }
  });

  it("let one lane pass per second during a flood, and every lane once it eases", async () => {
    const workers = { ...newWorkers(), flooded: true };
    const started = Date.now();
    await giveWayToFloods(workers);
    expect(Date.now() - started).toBeLessThan(50);

    let passed = 0;
    const second = giveWayToFloods(workers).then(() => passed++);
    const third = giveWayToFloods(workers).then(() => passed++);
    await sleep(500);
    expect(passed).toBe(0);
    // A second later, one more lane's turn: the flood's forwards keep moving.
    await sleep(800);
    expect(passed).toBe(1);
    workers.flooded = false;
    await Promise.all([second, third]);
    expect(passed).toBe(2);
  });

  it("do not wait without a flood", async () => {
    const started = Date.now();
    await giveWayToFloods(newWorkers());
    expect(Date.now() - started).toBeLessThan(50);
  });
});
