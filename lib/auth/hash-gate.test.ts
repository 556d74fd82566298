import { describe, expect, it } from "vitest";

import { HashGate, type Lane } from "./hash-gate";

/** Work that runs until its `finish` is called, noting how many such works run at once. */
function controlledWork() {
  const state = { running: 0, most: 0, finishers: [] as Array<() => void>, order: [] as string[] };
  const work = (name: string) => () =>
    new Promise<string>((resolve) => {
      state.running++;
      state.most = Math.max(state.most, state.running);
      state.order.push(name);
      state.finishers.push(() => {
        state.running--;
        resolve(name);
      });
    });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  /** Finishes the oldest running work and lets the gate start the next. */
  const finishOne = async () => {
    state.finishers.shift()!();
    await settle();
  };
  return { state, work, finishOne, settle };
}

describe("HashGate", () => {
  it("runs at most `atOnce` at a time and refuses at once, beyond a lane's waiting places, what would wait longer", async () => {
    const gate = new HashGate({ atOnce: 2, waiting: { trusted: 1, untrusted: 3 } });
    const { state, work, finishOne, settle } = controlledWork();
    const untrusted = Array.from({ length: 10 }, (_, i) => gate.tryRun("untrusted", work(`u${i}`)));
    // Two run, three wait; the other five are refused without waiting.
    expect(untrusted.map(Boolean)).toEqual([true, true, true, true, true, false, false, false, false, false]);
    expect(gate.load()).toEqual({ running: 2, waiting: { trusted: 0, untrusted: 3 } });
    // A caller the console trusts has places of its own, and goes ahead of the strangers.
    const trusted = (["t0", "t1", "t2", "t3"] as const).map((name) =>
      gate.tryRun("trusted" satisfies Lane, work(name)),
    );
    expect(trusted.map(Boolean)).toEqual([true, true, true, false]);
    await settle();
    while (state.finishers.length > 0) await finishOne();
    expect(await Promise.all([...untrusted, ...trusted].filter(Boolean))).toHaveLength(8);
    expect(state.most).toBe(2);
    expect(state.order).toEqual(["u0", "u1", "t0", "t1", "t2", "u2", "u3", "u4"]);
    // Once the line has emptied, every place is free again.
    expect(gate.load()).toEqual({ running: 0, waiting: { trusted: 0, untrusted: 0 } });
    expect(Array.from({ length: 5 }, () => gate.tryRun("untrusted", () => Promise.resolve())).every(Boolean)).toBe(
      true,
    );
  });

  it("frees the place of work that fails", async () => {
    const gate = new HashGate({ atOnce: 1, waiting: { trusted: 0, untrusted: 0 } });
    await expect(gate.tryRun("untrusted", () => Promise.reject(new Error("hash failed")))).rejects.toThrow(
      "hash failed",
    );
    await expect(gate.tryRun("untrusted", () => Promise.resolve("next"))).resolves.toBe("next");
  });

  it("starts untrusted work no closer together than its interval, while trusted work goes at once", async () => {
    const gate = new HashGate({ atOnce: 1, waiting: { trusted: 1, untrusted: 5 }, untrustedIntervalMs: 50 });
    const starts: Array<[string, number]> = [];
    const began = performance.now();
    const note = (name: string) => async () => void starts.push([name, performance.now() - began]);
    await Promise.all([
      ...Array.from({ length: 4 }, (_, i) => gate.tryRun("untrusted", note(`u${i}`))),
      gate.tryRun("trusted", note("t0")),
    ]);
    const untrustedStarts = starts.filter(([name]) => name.startsWith("u")).map(([, at]) => at);
    // Read on the run's clock, an interval further for each (5 ms for the timers' whole milliseconds), not
    // as gaps between notes: a thread descheduled between the gate's start and the work's note makes that
    // note late, and the next one, on time, then looks close to it (0.06 ms apart once, in CI's PostgreSQL
    // run at nice 19 beside e2e).
    for (let i = 1; i < untrustedStarts.length; i++) expect(untrustedStarts[i]).toBeGreaterThanOrEqual(50 * i - 5);
    // The trusted one was served between the first and second untrusted, without waiting out an interval of its own.
    expect(starts.map(([name]) => name)).toEqual(["u0", "t0", "u1", "u2", "u3"]);
  });

  it("spaces the next untrusted start from when the last one really started, when its timer fired late", async () => {
    const gate = new HashGate({ atOnce: 1, waiting: { trusted: 1, untrusted: 5 }, untrustedIntervalMs: 50 });
    const starts: number[] = [];
    const began = performance.now();
    const note = async () => void starts.push(performance.now() - began);
    // The event loop is busy from 40 ms to 60 ms (a loaded machine): the second start, due at 50 ms, comes late.
    setTimeout(() => {
      const until = performance.now() + 20;
      while (performance.now() < until);
    }, 40);
    await Promise.all(Array.from({ length: 3 }, () => gate.tryRun("untrusted", note)));
    expect(starts[1]).toBeGreaterThanOrEqual(59);
    // An interval after the second's real start (60 ms at the earliest: the busy loop's end), not after
    // its due time (which would be 100 ms). Read on the run's clock rather than as the gap between the
    // two notes: the note of the second start can itself come late on a loaded machine (39.9 ms apart
    // once, while the gate had spaced the third start right).
    expect(starts[2]).toBeGreaterThanOrEqual(108);
  });
});
