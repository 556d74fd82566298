import "server-only";

import { performance } from "node:perf_hooks";

import { eventsReceived } from "@/lib/webhooks/webhooks";

/**
 * Receiving comes first: while storing keeps the event loop nearly full (BUSY_UTILIZATION of FLOOD_WINDOWS windows in
 * a row, events arriving), the worker takes one batch per FLOOD_PASS_MS and leaves the rest queued in the outbox.
 * A burst, or a replay alone, is no flood (docs/forwarding.md, "What happens to an event").
 */
const BUSY_UTILIZATION = 0.9;
const LOAD_WINDOW_MS = 500;
const FLOOD_WINDOWS = 4;
const FLOOD_PASS_MS = 1_000;

/** Whether webhooks flood the process now, and when the worker last took during one. */
export type FloodState = { flooded: boolean; lastFloodPassAt: number };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The event loop's utilisation (0 to 1) since the last call, the first call measuring from now. */
export function eventLoopLoad(): () => number {
  let before = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, before);
    before = now;
    return utilization;
  };
}

/**
 * Every LOAD_WINDOW_MS: whether the last FLOOD_WINDOWS windows were all full (the event loop nearly
 * full, as `load` measures it, events arriving, as `received` counts them). Answers how to stop watching.
 */
export function watchForFloods(
  workers: FloodState,
  received: () => number = eventsReceived,
  load: () => number = eventLoopLoad(),
): () => void {
  let receivedBefore = received();
  let fullWindows = 0;
  const timer = setInterval(() => {
    const receivedNow = received();
    fullWindows = load() >= BUSY_UTILIZATION && receivedNow > receivedBefore ? fullWindows + 1 : 0;
    workers.flooded = fullWindows >= FLOOD_WINDOWS;
    receivedBefore = receivedNow;
  }, LOAD_WINDOW_MS).unref();
  return () => clearInterval(timer);
}

/** Returns at once, or during a flood once it eases or the turn for the flood's one batch per FLOOD_PASS_MS comes. */
export async function giveWayToFloods(workers: FloodState): Promise<void> {
  while (workers.flooded) {
    if (Date.now() - workers.lastFloodPassAt >= FLOOD_PASS_MS) {
      workers.lastFloodPassAt = Date.now();
      return;
    }
    await pause(LOAD_WINDOW_MS / 5);
  }
}
