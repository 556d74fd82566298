import "server-only";
import { performance } from "node:perf_hooks";
import { errorMessage } from "@/lib/error-message";
import { logger } from "@/lib/logger";
import { outboundPolicyFromEnv, type OutboundPolicy } from "@/lib/outbound/address-policy";
import { eventsReceived, onDeliveriesQueued } from "@/lib/webhooks/webhooks";
import { attemptDeliveries, startAttempts } from "./forward";
import { recordAttempts, takeDueDeliveries, type AttemptRecord } from "./outbox";

/**
 * The forwarding worker of this process. It takes due deliveries (fairly across destinations, each
 * within its own room: lib/destinations/outbox.ts) while it has room for more under way, starts each
 * one's attempt, and records each attempt as it ends, gathered into few statements. Nothing waits for
 * the slowest send of a batch: a destination that hangs holds only its own deliveries, and every one
 * that ends frees room for the next take. It takes when storing queues a delivery here
 * (onDeliveriesQueued), when an attempt ends, when a destination is turned back on or a replay queued
 * (wakeForwarding), and every POLL_MS (what other instances queued, retries and probes coming due).
 * The receiver never waits for any of it: storing only queues, and while a flood of webhooks fills the
 * process, the worker gives way.
 */

/** Attempts under way at once in this process, over every destination: four destinations' rooms. */
const MAX_IN_FLIGHT = 128;
/** Deliveries one take asks for at most: a few statements per batch, not per delivery. */
const BATCH_SIZE = 50;
const POLL_MS = 1_000;
const ERROR_PAUSE_MS = 5_000;
/**
 * How long a take prompted by storing waits: the events stored meanwhile go in the same statement, for
 * a few milliseconds more on each forward.
 */
const GATHER_MS = 20;
/**
 * How long an ended attempt waits to be recorded: the attempts that end meanwhile (answers come one by
 * one) go in the same statement, and the take after it fills their places at once, rather than one
 * statement of each per attempt.
 */
const RECORD_GATHER_MS = 5;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Receiving comes first: the service waits for the console's answer to each webhook (and sends it
 * again when none comes in time), a destination waits for nothing. So while storing keeps this
 * process's event loop nearly full (at least BUSY_UTILIZATION of each LOAD_WINDOW_MS for FLOOD_WINDOWS
 * windows in a row, events arriving), the worker takes one batch per FLOOD_PASS_MS and
 * leave the rest queued, durable in the outbox, until a window is not full. That one batch keeps
 * forwards moving through a flood that does not end. A burst is no flood (a steady stream arrives in
 * bursts, and holding its forwards back would only delay them), nor is a replay alone (no events
 * arriving).
 */
const BUSY_UTILIZATION = 0.9;
const LOAD_WINDOW_MS = 500;
const FLOOD_WINDOWS = 4;
const FLOOD_PASS_MS = 1_000;

/** One pass: takes up to `limit` due deliveries, sends them and records what happened. Answers how many it took. */
export async function forwardDueDeliveries(policy: OutboundPolicy = outboundPolicyFromEnv(), limit = BATCH_SIZE): Promise<number> {
  const taken = await takeDueDeliveries(limit);
  if (taken.length === 0) return 0;
  await recordAttempts(await attemptDeliveries(taken, policy));
  return taken.length;
}

/**
 * The worker's state: attempts under way, whether a take is running (and whether another was asked
 * for meanwhile), attempts ended and not yet recorded, and whether webhooks flood the process now,
 * with when the worker last took during one.
 */
export type Workers = {
  policy: () => OutboundPolicy;
  inFlight: number;
  taking: boolean;
  takeAgain: boolean;
  gathering: NodeJS.Timeout | undefined;
  ended: AttemptRecord[];
  recordingSoon: NodeJS.Timeout | undefined;
  recording: boolean;
  flooded: boolean;
  lastFloodPassAt: number;
  stopped: boolean;
};
export const newWorkers = (policy: () => OutboundPolicy = outboundPolicyFromEnv): Workers => ({
  policy,
  inFlight: 0,
  taking: false,
  takeAgain: false,
  gathering: undefined,
  ended: [],
  recordingSoon: undefined,
  recording: false,
  flooded: false,
  lastFloodPassAt: 0,
  stopped: false,
});
const state = globalThis as unknown as { __forwardingWorkers?: Workers };

/**
 * Every LOAD_WINDOW_MS: whether the last FLOOD_WINDOWS windows were all full (the event loop nearly
 * full, events arriving, as `received` counts them). Answers how to stop watching.
 */
export function watchForFloods(workers: Workers, received: () => number = eventsReceived): () => void {
  let windowStart = performance.eventLoopUtilization();
  let receivedBefore = received();
  let fullWindows = 0;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, windowStart);
    const receivedNow = received();
    fullWindows = utilization >= BUSY_UTILIZATION && receivedNow > receivedBefore ? fullWindows + 1 : 0;
    workers.flooded = fullWindows >= FLOOD_WINDOWS;
    windowStart = now;
    receivedBefore = receivedNow;
  }, LOAD_WINDOW_MS).unref();
  return () => clearInterval(timer);
}

/** Returns at once, or during a flood once it eases or the turn for the flood's one batch per FLOOD_PASS_MS comes. */
export async function giveWayToFloods(workers: Workers): Promise<void> {
  while (workers.flooded) {
    if (Date.now() - workers.lastFloodPassAt >= FLOOD_PASS_MS) {
      workers.lastFloodPassAt = Date.now();
      return;
    }
    await pause(LOAD_WINDOW_MS / 5);
  }
}

/** Records the ended attempts, in statements of up to a batch each, one statement at a time, then takes. */
async function recordEnded(workers: Workers): Promise<void> {
  if (workers.recording) return;
  workers.recording = true;
  try {
    while (workers.ended.length > 0) await recordAttempts(workers.ended.splice(0, BATCH_SIZE));
  } catch (error) {
    // Their deliveries stay leased and are taken again when the lease ends: at least once.
    logger.error("recording forwarding attempts failed", { error: errorMessage(error) });
  } finally {
    workers.recording = false;
  }
  // Then a take at once: until recorded, an attempt's lease still counted against its destination's room,
  // and a destination with a backlog waits for nothing.
  if (!workers.stopped) void takeAndStart(workers);
}

/** Records what ended RECORD_GATHER_MS from now, unless that is already coming or under way. */
function attemptEnded(workers: Workers, record: AttemptRecord | null): void {
  workers.inFlight--;
  if (record) workers.ended.push(record);
  if (workers.recording) return;
  workers.recordingSoon ??= setTimeout(() => {
    workers.recordingSoon = undefined;
    void recordEnded(workers);
  }, RECORD_GATHER_MS);
}

/**
 * Takes due deliveries while there is room, starting each one's attempt. One take runs at a time; one
 * asked for meanwhile runs after it, so no prompt is lost.
 */
export async function takeAndStart(workers: Workers): Promise<void> {
  if (workers.taking) {
    workers.takeAgain = true;
    return;
  }
  workers.taking = true;
  try {
    do {
      workers.takeAgain = false;
      await giveWayToFloods(workers);
      const room = Math.min(MAX_IN_FLIGHT - workers.inFlight, BATCH_SIZE);
      if (room <= 0 || workers.stopped) break;
      const taken = await takeDueDeliveries(room);
      workers.inFlight += taken.length;
      const attempts = await startAttempts(taken, workers.policy()).catch((error: unknown) => {
        workers.inFlight -= taken.length;
        throw error;
      });
      for (const attempt of attempts) {
        attempt.then(
          (record) => attemptEnded(workers, record),
          (error: unknown) => {
            logger.error("a forwarding attempt failed", { error: errorMessage(error) });
            attemptEnded(workers, null);
          },
        );
      }
      if (taken.length === room) workers.takeAgain = true;
    } while (workers.takeAgain);
  } catch (error) {
    logger.error("forwarding pass failed", { error: errorMessage(error) });
    await pause(ERROR_PAUSE_MS);
  } finally {
    workers.taking = false;
  }
}

/** A take GATHER_MS from now, unless one is already coming. */
function takeSoon(workers: Workers): void {
  if (workers.stopped) return;
  workers.gathering ??= setTimeout(() => {
    workers.gathering = undefined;
    void takeAndStart(workers);
  }, GATHER_MS);
}

/**
 * Starts a worker: it takes when told (the answer's `wake`), on a poll, and whenever an attempt ends.
 * `stop` ends its polling and taking; attempts under way finish and are recorded.
 */
export function startWorkers(workers: Workers = newWorkers()): { workers: Workers; wake: () => void; stop: () => void } {
  const stopWatching = watchForFloods(workers);
  const poll = setInterval(() => void takeAndStart(workers), POLL_MS).unref();
  void takeAndStart(workers);
  return {
    workers,
    wake: () => takeSoon(workers),
    stop: () => {
      workers.stopped = true;
      clearInterval(poll);
      clearTimeout(workers.gathering);
      stopWatching();
    },
  };
}

/** Starts this process's forwarding worker (once, also across dev reloads); it runs as long as the process. */
export function startForwarding(): void {
  if (state.__forwardingWorkers) return;
  const { workers, wake } = startWorkers();
  state.__forwardingWorkers = workers;
  onDeliveriesQueued(wake);
}

/** Takes now: deliveries may be due (a destination turned back on, a replay queued). */
export function wakeForwarding(): void {
  if (state.__forwardingWorkers) takeSoon(state.__forwardingWorkers);
}
