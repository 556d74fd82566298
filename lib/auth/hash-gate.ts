import "server-only";

/**
 * How many password hashes (argon2id, ~25 ms of one core each, 19 MiB) sign-in runs at once, and how
 * many may wait for their turn. One at a time leaves the host's other core to the webhook receiver
 * however many sign-ins arrive; an attempt that finds the line full is refused at once (HTTP 429)
 * instead of piling up behind a flood.
 */
export const HASHES_AT_ONCE = 1;
/** Waiting places for callers the console has no reason to trust: a flood fills these and no more. */
export const UNTRUSTED_WAITING = 8;
/**
 * Waiting places kept for callers who signed in to the email before (a known address or a device
 * cookie): they are served first, so a flood of strangers cannot keep them out.
 */
export const TRUSTED_WAITING = 4;

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

  constructor(private readonly limits: { atOnce: number; waiting: Record<Lane, number> }) {}

  /**
   * Runs `work` in `lane` when its turn comes, or answers null at once when that lane is full (as
   * many as may run, plus its waiting places): the caller then answers "busy" instead of waiting.
   */
  tryRun<T>(lane: Lane, work: () => Promise<T>): Promise<T> | null {
    if (this.held[lane] >= this.limits.atOnce + this.limits.waiting[lane]) return null;
    this.held[lane]++;
    const queued = async () => {
      try {
        await this.turn(lane);
        try {
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

  /** How many run and how many wait in each lane, right now. */
  load(): { running: number; waiting: Record<Lane, number> } {
    return { running: this.running, waiting: { trusted: this.waiting.trusted.length, untrusted: this.waiting.untrusted.length } };
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
});
