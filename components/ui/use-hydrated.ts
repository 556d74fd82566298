"use client";

import { useSyncExternalStore } from "react";

const subscribeToNothing = () => () => {};

/** False on the server and while hydrating, true in the browser after: for what only works once hydrated. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}
