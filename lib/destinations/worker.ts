import "server-only";
import { errorMessage, logger } from "@/lib/logger";
import { outboundPolicyFromEnv, type OutboundPolicy } from "@/lib/outbound/address-policy";
import { onDeliveriesQueued } from "@/lib/webhooks/webhooks";
import { attemptDeliveries } from "./forward";
import { recordAttempts, takeDueDeliveries } from "./outbox";

/**
 * The forwarding workers of this process: a few lanes, each taking a batch of due deliveries, sending
 * them side by side and recording the attempts, then the next batch. An idle lane sleeps until storing
 * queues a delivery here (onDeliveriesQueued), a destination is turned back on, or the poll interval
 * passes (for what other instances queued, and retries coming due). The receiver never waits for any
 * of it: storing only queues.
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

/** One pass: takes up to `limit` due deliveries, sends them and records what happened. Answers how many it took. */
export async function forwardDueDeliveries(policy: OutboundPolicy = outboundPolicyFromEnv(), limit = BATCH_SIZE): Promise<number> {
  const taken = await takeDueDeliveries(limit);
  if (taken.length === 0) return 0;
  await recordAttempts(await attemptDeliveries(taken, policy));
  return taken.length;
}

/**
 * The lanes' shared state: the idle lanes' wake-ups, oldest first, and whether a wake found every lane
 * busy (then the next lane to finish goes on instead of sleeping, so no wake is lost).
 */
type Workers = { idle: Array<() => void>; wakeWhileBusy: boolean };
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
 * One lane. Lane 0 also polls while idle (for what other instances queued and for retries coming due);
 * the others sleep until woken, by storing, by a destination turned back on, or by a lane that took a
 * full batch (more is waiting): an idle console asks the database once a second, not once per lane,
 * and a busy one takes each queued event in one lane's statement, not in every lane's.
 */
async function runLane(workers: Workers, lane: number): Promise<void> {
  for (;;) {
    try {
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
  const workers: Workers = { idle: [], wakeWhileBusy: false };
  let gathering: NodeJS.Timeout | undefined;
  onDeliveriesQueued(() => {
    gathering ??= setTimeout(() => {
      gathering = undefined;
      wakeOne(workers);
    }, GATHER_MS);
  });
  state.__forwardingWorkers = workers;
  for (let lane = 0; lane < LANES; lane++) void runLane(workers, lane);
}

/** Wakes an idle lane now: deliveries may be due (a destination turned back on, a replay queued). */
export function wakeForwarding(): void {
  if (state.__forwardingWorkers) wakeOne(state.__forwardingWorkers);
}
