/** How the console writes an instant. Client-safe, and the same wherever it runs (no locale, no zone). */

/** "2026-11-23 11:06:17 UTC": the exact instant, the same text wherever it is rendered. */
export function formatUtc(iso: string): string {
  return iso.replace("T", " ").replace(/(\.\d+)?Z$/, " UTC");
}

/**
 * "just now", "3 min ago", "in 2 h", "5 d ago"; beyond 30 days the UTC date. English words of our own
 * rather than Intl.RelativeTimeFormat with the reader's locale: the server does not know that locale,
 * and the text must be the same on both sides.
 */
export function formatRelative(iso: string, now: number): string {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  const abs = Math.abs(seconds);
  // Within a few seconds either way is now (two clocks never agree exactly); more than that to come is not
  // "just now": a breaker's next probe in 30 s read so.
  if (abs < 45) return seconds > -5 ? "just now" : "in under a minute";
  const [value, unit] =
    abs < 3600
      ? [Math.max(1, Math.round(abs / 60)), "min"]
      : abs < 86_400
        ? [Math.round(abs / 3600), "h"]
        : abs < 30 * 86_400
          ? [Math.round(abs / 86_400), "d"]
          : [0, ""];
  if (!unit) return iso.slice(0, 10);
  return seconds > 0 ? `${value} ${unit} ago` : `in ${value} ${unit}`;
}

/** A length of time as "45 s", "12 min", "3 h 5 min" (whole minutes, rounded down). */
export function formatDuration(totalSeconds: number): string {
  if (totalSeconds < 60) return `${totalSeconds} s`;
  const minutes = Math.floor(totalSeconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}
