import "server-only";

import { errorMessage } from "@/lib/error-message";
import { isDraining, onStop } from "@/lib/lifecycle";
import { logger } from "@/lib/logger";
import { processSingleton } from "@/lib/process-singleton";

/**
 * A timer-driven job of this process (retention, alerts, erasure resumption, replay queuing): `run` every `everyMs`,
 * the first `firstMs` from the start, one run at a time (a tick during a run joins it). It stops with the process
 * (lib/lifecycle.ts): while draining it starts no run, and its "work" hook waits, until the deadline, for the run under
 * way and for what `underWay` answers (work the job's routes started); a run looks at isStopping() between its steps.
 */
export type BackgroundJobOptions = {
  everyMs: number;
  firstMs?: number;
  run: () => Promise<unknown>;
  underWay?: () => Promise<unknown> | null;
};

export type BackgroundJob = {
  /** Starts a run now (unless draining), or joins the one under way. */
  runNow: () => Promise<void>;
};

/** Resolves true when `work` settled before `deadline` (Date.now()), false once it has come. */
async function settledBy(work: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), deadline - Date.now())));
  try {
    return await Promise.race([work.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Starts the job `name` once per process (also across dev reloads); later calls answer the one started. */
export function startBackgroundJob(name: string, options: BackgroundJobOptions): BackgroundJob {
  return processSingleton(`jobs.${name}`, (): BackgroundJob => {
    const { everyMs, firstMs = everyMs, run, underWay } = options;
    let current: Promise<void> | null = null;
    const runNow = (): Promise<void> => {
      if (isDraining()) return current ?? Promise.resolve();
      current ??= run()
        .then(() => undefined)
        .catch((error: unknown) => logger.error("a background job failed", { job: name, error: errorMessage(error) }))
        .finally(() => (current = null));
      return current;
    };
    const first = setTimeout(() => void runNow(), firstMs).unref();
    const every = setInterval(() => void runNow(), everyMs).unref();
    onStop(name, "work", async (deadline) => {
      clearTimeout(first);
      clearInterval(every);
      const work = [current, underWay?.()].filter((p): p is Promise<unknown> => p != null);
      if (!(await settledBy(Promise.allSettled(work), deadline)))
        logger.warn("a background job was still running at the stop's deadline", { job: name });
    });
    return { runNow };
  });
}
