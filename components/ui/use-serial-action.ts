"use client";

import { useRouter } from "next/navigation";
import { useRef, useTransition } from "react";

/**
 * Runs a change (a server action and its toast) in a transition, one at a time, even when a button is
 * pressed again before React has disabled it, then refreshes the page's server data. Answers whether
 * one is under way, for the buttons' disabled state.
 */
export function useSerialAction(): [pending: boolean, run: (work: () => Promise<void>) => void] {
  const router = useRouter();
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
        router.refresh();
      }
    });
  };
  return [pending, run];
}
