import "server-only";
import { performance } from "node:perf_hooks";
import { errorMessage, logger } from "@/lib/logger";
import { outboundPolicyFromEnv, type OutboundPolicy } from "@/lib/outbound/address-policy";
import { eventsReceived, onDeliveriesQueued } from "@/lib/webhooks/webhooks";
import { attemptDeliveries } from "./forward";
import { recordAttempts, takeDueDeliveries } from "./outbox";

/**
 * The forwarding workers of this process: a few lanes, each taking a batch of due deliveries, sending
 * them side by side and recording the attempts, then the next batch. An idle lane sleeps until storing
 * queues a delivery here (onDeliveriesQueued), a destination is turned back on, or the poll interval
 * passes (for what other instances queued, and retries coming due). The receiver never waits for any
 * of it: storing only queues, and while a flood of webhooks fills the process, the lanes give way.
 */

const LANES = 4;
const BATCH_SIZE = 25;
const IDLE_POLL_MS = 1_000;
const ERROR_PAUSE_MS = 5_000;
/**
 * How long a lane woken by storing waits before it takes: the events stored meanwhile go in the same
 * batch (a few statements per batch, not per event), for a few milliseconds more on each forward.
 */
const GATHER_MS = 50;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Receiving comes first: the service waits for the console's answer to each webhook (and sends it
 * again when none comes in time), a destination waits for nothing. So while storing keeps this
 * process's event loop nearly full (at least BUSY_UTILIZATION of each LOAD_WINDOW_MS for FLOOD_WINDOWS
 * windows in a row, events arriving), the lanes forward one batch per FLOOD_PASS_MS between them and
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
 * The lanes' shared state: the idle lanes' wake-ups, oldest first, whether a wake found every lane
 * busy (then the next lane to finish goes on instead of sleeping, so no wake is lost), and whether
 * webhooks flood the process now, with when a lane last passed during one.
 */
export type Workers = { idle: Array<() => void>; wakeWhileBusy: boolean; flooded: boolean; lastFloodPassAt: number };
export const newWorkers = (): Workers => ({ idle: [], wakeWhileBusy: false, flooded: false, lastFloodPassAt: 0 });
const state = globalThis as unknown as { __forwardingWorkers?: Workers };

/** Wakes one idle lane: one event queued needs one lane's pass, not every lane's. */
function wakeOne(workers: Workers): void {
  const wake = workers.idle.shift();
  if (wake) wake();
  else workers.wakeWhileBusy = true;
}

/** Sleeps until woken, or for `pollMs` when given. */
function idle(workers: Workers, pollMs?: number): Promise<void> {
  if (workers.wakeWhileBusy) {
    workers.wakeWhileBusy = false;
    return Promise.resolve();
  }
  return new Promise<void>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const wake = () => {
      clearTimeout(timer);
      resolve();
    };
    workers.idle.push(wake);
    if (pollMs !== undefined) {
      timer = setTimeout(() => {
        workers.idle.splice(workers.idle.indexOf(wake), 1);
        resolve();
      }, pollMs);
    }
  });
}

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

/** Returns at once, or during a flood once it eases or this lane's turn for the flood's one batch per FLOOD_PASS_MS comes. */
export async function giveWayToFloods(workers: Workers): Promise<void> {
  while (workers.flooded) {
    if (Date.now() - workers.lastFloodPassAt >= FLOOD_PASS_MS) {
      workers.lastFloodPassAt = Date.now();
      return;
    }
    await pause(LOAD_WINDOW_MS / 5);
  }
}

/**
 * One lane. Lane 0 also polls while idle (for what other instances queued and for retries coming due);
 * the others sleep until woken, by storing, by a destination turned back on, or by a lane that took a
 * full batch (more is waiting): an idle console asks the database once a second, not once per lane,
 * and a busy one takes each queued event in one lane's statement, not in every lane's.
 */
async function runLane(workers: Workers, lane: number): Promise<void> {
  for (;;) {
    try {
      await giveWayToFloods(workers);
      const taken = await forwardDueDeliveries();
      if (taken === BATCH_SIZE) wakeOne(workers);
      else await idle(workers, lane === 0 ? IDLE_POLL_MS : undefined);
    } catch (error) {
      logger.error("forwarding pass failed", { error: errorMessage(error) });
      await pause(ERROR_PAUSE_MS);
    }
  }
}

/** Starts this process's forwarding lanes (once, also across dev reloads); they run as long as the process. */
export function startForwarding(): void {
  if (state.__forwardingWorkers) return;
  const workers = newWorkers();
  let gathering: NodeJS.Timeout | undefined;
  onDeliveriesQueued(() => {
    gathering ??= setTimeout(() => {
      gathering = undefined;
      wakeOne(workers);
    }, GATHER_MS);
  });
  state.__forwardingWorkers = workers;
  watchForFloods(workers);
  for (let lane = 0; lane < LANES; lane++) void runLane(workers, lane);
}

/** Wakes an idle lane now: deliveries may be due (a destination turned back on, a replay queued). */
export function wakeForwarding(): void {
  if (state.__forwardingWorkers) wakeOne(state.__forwardingWorkers);
}
