import { formatDuration } from "@/lib/time-format";

import { BREAKER_WORDS } from "./constants";

/** A tripped breaker in words, client-safe: what the cards, the destination's page and the log's drawer say. */

/** When the next try goes: "next try in 30 s", "next try in 2 min", or, once its time has come, that it is under way. */
export function nextTryWords(probeAt: string | null, now: number | null): string {
  if (probeAt === null) return "trying again now";
  if (now === null) return "next try soon";
  const seconds = Math.ceil((Date.parse(probeAt) - now) / 1000);
  return seconds <= 0 ? "trying again now" : `next try in ${formatDuration(seconds)}`;
}

/** The whole sentence: "Paused after 5 failed attempts; next try in 30 s". */
export const breakerSentence = (probeAt: string | null, now: number | null) =>
  `${BREAKER_WORDS}; ${nextTryWords(probeAt, now)}`;
