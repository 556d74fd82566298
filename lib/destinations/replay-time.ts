import { formatDuration } from "@/lib/time-format";

/**
 * How long a replay takes at a destination's rate, in plain words ("about 2 h 47 min"), to the nearest
 * minute past the first, and in days past a day: client-safe, for the replay dialog.
 */
export function replayDurationWords(events: number, perSecond: number): string {
  const seconds = Math.ceil(events / perSecond);
  if (seconds <= 1) return "about a second";
  const minutes = Math.round(seconds / 60);
  if (minutes < 24 * 60) return `about ${formatDuration(seconds < 60 ? seconds : minutes * 60)}`;
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  return `about ${days} d${hours % 24 ? ` ${hours % 24} h` : ""}`;
}
