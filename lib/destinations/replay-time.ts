/**
 * How long a replay takes at a destination's rate cap, in plain words ("about 2 h 47 min"): client-safe,
 * for the replay dialog and the CLI. The project has no duration library, and this is one sentence.
 */
export function replayDurationWords(events: number, perSecond: number): string {
  const seconds = Math.ceil(events / perSecond);
  if (seconds < 60) return seconds <= 1 ? "about a second" : `about ${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `about ${hours} h${minutes % 60 ? ` ${minutes % 60} min` : ""}`;
  const days = Math.floor(hours / 24);
  return `about ${days} d${hours % 24 ? ` ${hours % 24} h` : ""}`;
}
