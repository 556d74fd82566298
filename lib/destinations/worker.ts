import "server-only";

import { DELIVERIES_QUEUED_CHANNEL, listen } from "@/lib/db/notifications";
import { errorMessage } from "@/lib/error-message";
import { isDraining, onStop } from "@/lib/lifecycle";
import { logger } from "@/lib/logger";
import { outboundPolicyFromEnv, type OutboundPolicy } from "@/lib/outbound/address-policy";
import { processSingleton } from "@/lib/process-singleton";
import { onDeliveriesQueued } from "@/lib/webhooks/webhooks";

import { giveWayToFloods, watchForFloods, type FloodState } from "./floods";
import { attemptNotMade, startAttempts } from "./forward";
import { isGivenBack, recordOutcomes, type AttemptOutcome } from "./leases";
import { LEASE_SECONDS, takeDueDeliveries, type TakenDelivery } from "./outbox";

/**
 * The forwarding worker of this process: takes due deliveries when woken, notified or polled, keeps their attempts
 * under way and records each as it ends, giving way while webhooks flood the process (ARCHITECTURE.md, "Forwarding").
 */

/** Attempts under way at once in this process, over every destination: four destinations' rooms. */
const MAX_IN_FLIGHT = 128;
/** Deliveries one take asks for at most: a few statements per batch, not per delivery. */
const BATCH_SIZE = 50;
const POLL_MS = 1_000;
const ERROR_PAUSE_MS = 5_000;
/** How long a take prompted by storing waits: the events stored meanwhile go in the same statement. */
const GATHER_MS = 20;
/**
 * How long an ended attempt waits to be recorded: the attempts that end meanwhile (answers come one by
 * one) go in the same statement, and the take after it fills their places at once, rather than one
 * statement of each per attempt.
 */
const RECORD_GATHER_MS = 5;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An ended attempt to record, and when (this process's clock) its lease ends: past it, another may take it again. */
type Ended = { record: AttemptOutcome; leaseEndsAt: number };

/** How attempts start: startAttempts (./forward.ts), which a test replaces to make it fail. */
type StartAttempts = typeof startAttempts;

/**
 * Starts the taken deliveries' attempts, one promise each that never rejects: whatever fails before an attempt ends
 * becomes a failed attempt with its reason, which ends the lease at once (no lease runs out unrecorded).
 */
async function startTaken(
  taken: readonly TakenDelivery[],
  { policy, start, abort }: { policy: () => OutboundPolicy; start: StartAttempts; abort?: AbortController },
): Promise<Array<Promise<AttemptOutcome>>> {
  if (taken.length === 0) return [];
  let attempts: Array<Promise<AttemptOutcome>>;
  try {
    attempts = await start(taken, policy(), abort?.signal);
  } catch (error) {
    logger.error("starting forwarding attempts failed", { error: errorMessage(error), deliveries: taken.length });
    return taken.map((delivery) => Promise.resolve(attemptNotMade(delivery, error)));
  }
  return taken.map((delivery, i) =>
    (attempts[i] ?? Promise.reject(new Error("no attempt was started for it"))).catch((error: unknown) => {
      logger.error("a forwarding attempt failed", { error: errorMessage(error) });
      return attemptNotMade(delivery, error);
    }),
  );
}

/** One pass: takes up to `limit` due deliveries, sends them and records what happened. Answers how many it took. */
export async function forwardDueDeliveries(
  policy: OutboundPolicy = outboundPolicyFromEnv(),
  limit = BATCH_SIZE,
): Promise<number> {
  const taken = await takeDueDeliveries(limit);
  if (taken.length === 0) return 0;
  await recordOutcomes(await Promise.all(await startTaken(taken, { policy: () => policy, start: startAttempts })));
  return taken.length;
}

/**
 * The worker's state: how it sends, attempts under way, whether a take is running (or was asked for meanwhile),
 * attempts ended but not yet recorded (or whose recording failed), and whether webhooks flood the process now.
 */
export type Workers = FloodState & {
  policy: () => OutboundPolicy;
  start: StartAttempts;
  /** Aborted by the stop at its deadline: what is still under way then is given back (./leases.ts). */
  abort: AbortController;
  inFlight: number;
  taking: boolean;
  takeAgain: boolean;
  gathering: NodeJS.Timeout | undefined;
  ended: Ended[];
  unrecorded: Ended[];
  recordingSoon: NodeJS.Timeout | undefined;
  recording: boolean;
  stopped: boolean;
};
export const newWorkers = (
  policy: () => OutboundPolicy = outboundPolicyFromEnv,
  start: StartAttempts = startAttempts,
): Workers => ({
  policy,
  start,
  abort: new AbortController(),
  inFlight: 0,
  taking: false,
  takeAgain: false,
  gathering: undefined,
  ended: [],
  unrecorded: [],
  recordingSoon: undefined,
  recording: false,
  flooded: false,
  lastFloodPassAt: 0,
  stopped: false,
});
const running = () => processSingleton("destinations.workers", (): { workers?: Workers } => ({}));

/** Records a chunk of ended attempts; should that fail, they are kept to be tried again. */
async function recordChunk(workers: Workers, chunk: Ended[]): Promise<void> {
  try {
    await recordOutcomes(chunk.map((ended) => ended.record));
  } catch (error) {
    logger.error("recording forwarding attempts failed: tried again while their leases hold", {
      error: errorMessage(error),
      attempts: chunk.length,
    });
    workers.unrecorded.push(...chunk);
  }
}

/**
 * The attempts whose recording failed and whose leases still hold, taken from `unrecorded`. Those past
 * their lease are dropped: their deliveries are taken and sent again (at least once), and recording
 * them now would end the lease of a worker that has taken one again.
 */
function stillLeased(workers: Workers): Ended[] {
  const now = Date.now();
  const holding = workers.unrecorded.filter((ended) => ended.leaseEndsAt > now);
  const lapsed = workers.unrecorded.length - holding.length;
  workers.unrecorded = [];
  if (lapsed > 0)
    logger.error("forwarding attempts never recorded: their leases ended, and their deliveries are sent again", {
      attempts: lapsed,
    });
  return holding;
}

/**
 * Records the ended attempts, in statements of up to a batch each, one statement at a time, then takes.
 * Those whose recording failed before go first, one per statement: one the database refuses then holds
 * only its own delivery.
 */
async function recordEnded(workers: Workers): Promise<void> {
  if (workers.recording) return;
  workers.recording = true;
  try {
    for (const ended of stillLeased(workers)) await recordChunk(workers, [ended]);
    // The leases the stop gives back, in one statement, before the stop's deadline.
    const givenBack = workers.ended.filter((ended) => isGivenBack(ended.record));
    workers.ended = workers.ended.filter((ended) => !isGivenBack(ended.record));
    if (givenBack.length > 0) await recordChunk(workers, givenBack);
    while (workers.ended.length > 0) await recordChunk(workers, workers.ended.splice(0, BATCH_SIZE));
  } finally {
    workers.recording = false;
  }
  // Then a take at once: until recorded, an attempt's lease still counted against its destination's room,
  // and a destination with a backlog waits for nothing.
  if (!workers.stopped) void takeAndStart(workers);
}

/** Records what ended RECORD_GATHER_MS from now, unless that is already coming or under way. */
function attemptEnded(workers: Workers, ended: Ended): void {
  workers.inFlight--;
  workers.ended.push(ended);
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
      if (room <= 0 || workers.stopped || isDraining()) break;
      // Before the take, so never later than the lease the take's statement sets.
      const leaseEndsAt = Date.now() + LEASE_SECONDS * 1_000;
      const taken = await takeDueDeliveries(room);
      workers.inFlight += taken.length;
      for (const attempt of await startTaken(taken, workers))
        void attempt.then((record) => attemptEnded(workers, { record, leaseEndsAt }));
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
 * Starts a worker, which takes when woken (`wake`), notified (PostgreSQL), polled, and whenever an attempt ends.
 * `stop` ends polling, listening and taking; attempts under way finish and are recorded.
 */
export function startWorkers(workers: Workers = newWorkers()): {
  workers: Workers;
  wake: () => void;
  stop: () => Promise<void>;
} {
  const stopWatching = watchForFloods(workers);
  const listening = listen(DELIVERIES_QUEUED_CHANNEL, () => takeSoon(workers));
  const poll = setInterval(
    () => void (workers.unrecorded.length > 0 ? recordEnded(workers) : takeAndStart(workers)),
    POLL_MS,
  ).unref();
  void takeAndStart(workers);
  return {
    workers,
    wake: () => takeSoon(workers),
    stop: () => {
      workers.stopped = true;
      clearInterval(poll);
      clearTimeout(workers.gathering);
      stopWatching();
      return listening.stop();
    },
  };
}

/**
 * Until no take or attempt is under way and every ended one is recorded (one whose recording failed is tried again),
 * or the deadline (Date.now()) has come: whether it settled.
 */
async function settle(workers: Workers, deadline: number): Promise<boolean> {
  const busy = () =>
    workers.taking || workers.inFlight > 0 || workers.ended.length + workers.unrecorded.length > 0 || workers.recording;
  while (busy() && Date.now() < deadline) {
    if (workers.unrecorded.length > 0 && !workers.recording) void recordEnded(workers);
    await pause(50);
  }
  return !busy();
}

/**
 * A worker's part of the stop: it takes nothing new, lets the attempts under way end and be recorded until a second
 * before the deadline (Date.now()), then aborts the rest and gives their leases back (./leases.ts), by the deadline.
 */
export async function drainWorkers({ workers, stop }: ReturnType<typeof startWorkers>, deadline: number) {
  await stop();
  if (await settle(workers, deadline - 1_000)) return;
  workers.abort.abort();
  if (!(await settle(workers, deadline)))
    logger.warn("forwarding attempts not given back by the stop's deadline: their leases end, then they are sent", {
      attempts: workers.inFlight + workers.ended.length + workers.unrecorded.length,
    });
}

/**
 * Starts this process's forwarding worker (once, also across dev reloads); it runs until the process stops, when
 * it takes nothing new, lets the attempts under way end and be recorded, and gives back the rest (drainWorkers).
 */
export function startForwarding(): void {
  const held = running();
  if (held.workers) return;
  const started = startWorkers();
  held.workers = started.workers;
  onDeliveriesQueued(started.wake);
  onStop("forwarding", "work", (deadline) => drainWorkers(started, deadline));
}

/** Takes now: deliveries may be due (a destination turned back on, a replay queued). */
export function wakeForwarding(): void {
  const { workers } = running();
  if (workers) takeSoon(workers);
}
