import "server-only";

import { setTimeout as wait } from "node:timers/promises";

/**
 * How many password hashes sign-in runs at once: one leaves the other core to the webhook receiver, and an attempt
 * that finds the line full is refused at once (HTTP 429). Costs: docs/performance.md, "Sign-in's password hashes".
 */
export const HASHES_AT_ONCE = 1;
/** Waiting places for callers the console has no reason to trust: a flood fills these and no more. */
export const UNTRUSTED_WAITING = 8;
/**
 * Waiting places kept for callers who signed in to the email before (a known address or a device
 * cookie): they are served first, so a flood of strangers cannot keep them out.
 */
export const TRUSTED_WAITING = 4;
/**
 * Untrusted hashes start at least this far apart (at most 10 a second): one at a time alone still let a flood keep a
 * core busy (docs/performance.md, "Sign-in's password hashes").
 */
export const UNTRUSTED_INTERVAL_MS = 100;

export type Lane = "trusted" | "untrusted";

/**
 * A bounded, two-lane line in front of CPU-heavy work. p-limit and its kin queue without a bound
 * and without priority, which is the whole point here.
 */
export class HashGate {
  private running = 0;
  private readonly waiting: Record<Lane, Array<() => void>> = { trusted: [], untrusted: [] };
  /** Per lane: work running or waiting. */
  private readonly held: Record<Lane, number> = { trusted: 0, untrusted: 0 };
  /** When the next untrusted work may start (performance.now() ms). */
  private nextUntrustedStart = 0;

  constructor(
    private readonly limits: { atOnce: number; waiting: Record<Lane, number>; untrustedIntervalMs?: number },
  ) {}

  /**
   * Runs `work` in `lane` when its turn comes, or answers null at once when that lane is full (as
   * many as may run, plus its waiting places): the caller then answers "busy" instead of waiting.
   */
  tryRun<T>(lane: Lane, work: () => Promise<T>): Promise<T> | null {
    if (this.isFull(lane)) return null;
    this.held[lane]++;
    const queued = async () => {
      try {
        await this.turn(lane);
        try {
          if (lane === "untrusted") await this.spaceOut();
          return await work();
        } finally {
          this.running--;
          this.next();
        }
      } finally {
        this.held[lane]--;
      }
    };
    return queued();
  }

  /** Whether `lane` has no place left right now (tryRun would answer null). */
  isFull(lane: Lane): boolean {
    return this.held[lane] >= this.limits.atOnce + this.limits.waiting[lane];
  }

  /** How many run and how many wait in each lane, right now. */
  load(): { running: number; waiting: Record<Lane, number> } {
    return {
      running: this.running,
      waiting: { trusted: this.waiting.trusted.length, untrusted: this.waiting.untrusted.length },
    };
  }

  /**
   * Waits until the untrusted lane's next start time, and sets the one after from when this one really
   * starts: a timer that fires late on a busy machine must not bring the next start closer.
   */
  private async spaceOut(): Promise<void> {
    const interval = this.limits.untrustedIntervalMs ?? 0;
    if (interval <= 0) return;
    const now = performance.now();
    const startAt = Math.max(now, this.nextUntrustedStart);
    this.nextUntrustedStart = startAt + interval;
    if (startAt > now) await wait(Math.ceil(startAt - now));
    this.nextUntrustedStart = Math.max(this.nextUntrustedStart, performance.now() + interval);
  }

  private turn(lane: Lane): Promise<void> {
    if (this.running < this.limits.atOnce) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting[lane].push(resolve));
  }

  private next(): void {
    const start = this.waiting.trusted.shift() ?? this.waiting.untrusted.shift();
    if (!start) return;
    this.running++;
    start();
  }
}

/** The process's one gate: every password check of a sign-in passes through it. */
export const signInHashGate = new HashGate({
  atOnce: HASHES_AT_ONCE,
  waiting: { trusted: TRUSTED_WAITING, untrusted: UNTRUSTED_WAITING },
  untrustedIntervalMs: UNTRUSTED_INTERVAL_MS,
});
