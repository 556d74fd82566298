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

/** One pass: takes up to `limit` due deliveries, sends them and records what happened. Answers how many it took. */
export async function forwardDueDeliveries(policy: OutboundPolicy = outboundPolicyFromEnv(), limit = BATCH_SIZE): Promise<number> {
  const taken = await takeDueDeliveries(limit);
  if (taken.length === 0) return 0;
  await recordAttempts(await attemptDeliveries(taken, policy));
  return taken.length;
}

type Workers = { wake: () => void; sleeping: Promise<void> };
const state = globalThis as unknown as { __forwardingWorkers?: Workers };

/** Sleeps until woken, or for `ms` when given. */
function nap(workers: Workers, ms?: number): Promise<void> {
  if (ms === undefined) return workers.sleeping;
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([workers.sleeping, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() => clearTimeout(timer));
}

/**
 * One lane. Lane 0 also polls while idle (for what other instances queued and for retries coming due);
 * the others sleep until woken, by storing, by a destination turned back on, or by a lane that took a
 * full batch (more is waiting): an idle console asks the database once a second, not once per lane.
 */
async function runLane(workers: Workers, lane: number): Promise<void> {
  for (;;) {
    try {
      const taken = await forwardDueDeliveries();
      if (taken === BATCH_SIZE) workers.wake();
      else await nap(workers, lane === 0 ? IDLE_POLL_MS : undefined);
    } catch (error) {
      logger.error("forwarding pass failed", { error: errorMessage(error) });
      await nap(workers, ERROR_PAUSE_MS);
    }
  }
}

/** Starts this process's forwarding lanes (once, also across dev reloads); they run as long as the process. */
export function startForwarding(): void {
  if (state.__forwardingWorkers) return;
  const workers = {} as Workers;
  const resetSleep = () => {
    workers.sleeping = new Promise<void>((resolve) => {
      workers.wake = () => {
        resetSleep();
        resolve();
      };
    });
  };
  resetSleep();
  onDeliveriesQueued(() => workers.wake());
  state.__forwardingWorkers = workers;
  for (let lane = 0; lane < LANES; lane++) void runLane(workers, lane);
}

/** Wakes idle lanes now: deliveries may be due (a destination turned back on). */
export function wakeForwarding(): void {
  state.__forwardingWorkers?.wake();
}
