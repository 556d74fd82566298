"use client";

import { createContext, useContext, useSyncExternalStore } from "react";

/**
 * "Now" for relative times: the layout's instant (`serverNow`, serialised into the page) on the server and while
 * hydrating, so "3 min ago" does not flash to another text; then the client's clock, in ticks, so the renders
 * between two ticks agree.
 */
const TICK_MS = 20_000;
const ServerNow = createContext<number | null>(null);

let clientNow: number | null = null;
const listeners = new Set<() => void>();
let ticking = false;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // One interval for the whole console, never stopped: a later page then reads a now at most one tick old.
  if (!ticking) {
    ticking = true;
    setInterval(() => {
      clientNow = Date.now();
      for (const l of listeners) l();
    }, TICK_MS);
  }
  return () => listeners.delete(listener);
}

export function NowProvider({ serverNow, children }: { serverNow: number; children: React.ReactNode }) {
  return <ServerNow.Provider value={serverNow}>{children}</ServerNow.Provider>;
}

/** The current time in ms, or null outside a NowProvider (then show absolute times only). */
export function useNow(): number | null {
  const serverNow = useContext(ServerNow);
  return useSyncExternalStore(
    subscribe,
    () => clientNow ?? serverNow,
    () => serverNow,
  );
}
