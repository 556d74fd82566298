import { errorMessage } from "@/lib/error-message";
import { logger } from "@/lib/logger";
import { processSingleton } from "@/lib/process-singleton";

/**
 * How this process stops (docs/operations.md, "Stopping and upgrading"). The launcher (server.mjs) reaches it
 * through globalThis (its key is `tenant-console.lifecycle`): at SIGTERM it calls `beginDraining` (readiness says
 * 503 at once), keeps serving for the shutdown delay, closes the listener and its keep-alive connections, then calls
 * `stop`, which runs what the slices registered with `onStop`, stage by stage.
 *
 * Stages, in order: "work" (background jobs take nothing new and finish or give back what is under way by the
 * deadline), "flush" (what is batched in memory is written), "close" (the database pool). A stage's hooks run side by
 * side; a hook that throws is logged and does not stop the others.
 */
export type StopStage = "work" | "flush" | "close";
const STAGES: readonly StopStage[] = ["work", "flush", "close"];

/** What a hook gets: the instant (Date.now()) by which it must be done. */
export type StopHook = (deadline: number) => Promise<void>;

type Lifecycle = {
  /** Start-up (migrations, jobs) done: the readiness route may say 200. */
  started: boolean;
  draining: boolean;
  /** From the stop's first stage on: a job's run ends at its next step (isStopping). */
  stopping: boolean;
  hooks: Array<{ name: string; stage: StopStage; stop: StopHook }>;
  beginDraining: () => void;
  stop: (deadline: number) => Promise<void>;
};

const lifecycle = () =>
  processSingleton("lifecycle", (): Lifecycle => {
    const self: Lifecycle = {
      started: false,
      draining: false,
      stopping: false,
      hooks: [],
      beginDraining: () => {
        self.draining = true;
      },
      stop: async (deadline) => {
        self.draining = true;
        self.stopping = true;
        for (const stage of STAGES) {
          await Promise.all(
            self.hooks
              .filter((hook) => hook.stage === stage)
              .map(async (hook) => {
                try {
                  await hook.stop(deadline);
                } catch (error) {
                  logger.error("a stop step failed", { step: hook.name, error: errorMessage(error) });
                }
              }),
          );
        }
      },
    };
    return self;
  });

/** True from SIGTERM on: the readiness route answers 503, background jobs take nothing new. */
export const isDraining = (): boolean => lifecycle().draining;

/**
 * True once the stop runs (after the shutdown delay): a job's run under way, which draining let go on, ends at its
 * next step and leaves the rest to another instance or the next start.
 */
export const isStopping = (): boolean => lifecycle().stopping;

/** What the readiness route says before it asks the database: starting, draining, or serving. */
export function lifecycleState(): "starting" | "draining" | "serving" {
  const { started, draining } = lifecycle();
  return draining ? "draining" : started ? "serving" : "starting";
}

/** Called once start-up (lib/startup.ts) is done. */
export function markStarted(): void {
  lifecycle().started = true;
}

/** Registers what the process's stop runs at `stage` (one name once: a second registration replaces the first). */
export function onStop(name: string, stage: StopStage, stop: StopHook): void {
  const { hooks } = lifecycle();
  const index = hooks.findIndex((hook) => hook.name === name);
  if (index >= 0) hooks.splice(index, 1);
  hooks.push({ name, stage, stop });
}

/** Begins the drain (what the launcher calls at SIGTERM); exported for tests. */
export const beginDraining = (): void => lifecycle().beginDraining();

/** Runs the stop (what the launcher calls once the listener closed); exported for tests. */
export const stopProcess = (deadline: number): Promise<void> => lifecycle().stop(deadline);
