"use client";

import { useRef, useTransition } from "react";

/**
 * Runs a change (a server action and its toast) in a transition, one at a time, even when a button is
 * pressed again before React has disabled it (the action's own revalidation refreshes the page).
 * Answers whether one is under way, for the buttons' disabled state.
 */
export function useSerialAction(): [pending: boolean, run: (work: () => Promise<void>) => void] {
  const [pending, startTransition] = useTransition();
  const busy = useRef(false);
  const run = (work: () => Promise<void>) => {
    if (busy.current) return;
    busy.current = true;
    startTransition(async () => {
      try {
        await work();
      } finally {
        busy.current = false;
      }
    });
  };
  return [pending, run];
}
