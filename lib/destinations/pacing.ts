import "server-only";

/**
 * The last word on a destination's rate cap in this process: an attempt starts only when fewer than the cap started
 * in the window before it, which holds when sends run late unevenly (the outbox's slots already keep the cap). The
 * window is a little longer than a second, so that the network's own jitter cannot break it.
 */
const WINDOW_MS = 1_050;

type Window = { starts: number[]; turn: Promise<void> };
const windows = new Map<string, Window>();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves when an attempt to this destination may start within its cap (at once without one), in the order asked. */
export function startWithinCap(destinationId: string, maxPerSecond: number | null): Promise<void> {
  if (maxPerSecond === null) return Promise.resolve();
  let window = windows.get(destinationId);
  if (!window) windows.set(destinationId, (window = { starts: [], turn: Promise.resolve() }));
  const { starts } = window;
  const mine = window.turn.then(async () => {
    for (;;) {
      const now = Date.now();
      while (starts.length > 0 && starts[0]! <= now - WINDOW_MS) starts.shift();
      if (starts.length < maxPerSecond) {
        starts.push(now);
        return;
      }
      await sleep(starts[0]! + WINDOW_MS - now);
    }
  });
  window.turn = mine;
  return mine;
}
