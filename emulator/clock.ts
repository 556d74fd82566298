/**
 * The emulator's notion of "now": real time plus an offset that the control API moves forward,
 * so tests and demos can make minutes or days pass instantly.
 */
export class VirtualClock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }

  reset(): void {
    this.offsetMs = 0;
  }

  get offsetSeconds(): number {
    return this.offsetMs / 1000;
  }
}
