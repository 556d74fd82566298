/** The reader's time zone as the server learns it. Client-safe. */

/**
 * The cookie that tells the server the reader's time zone, so that the log's times render the same on both sides.
 * Every page writes it (components/shell/zone-cookie.tsx).
 */
export const VIEWER_ZONE_COOKIE = "console_time_zone";

/** The zone the browser runs in (in the browser only). */
export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A zone name the cookie may hold, if this runtime knows it; else UTC. */
export function knownZone(zone: string | undefined): string {
  if (!zone || zone.length > 64) return "UTC";
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: zone });
    return zone;
  } catch {
    return "UTC";
  }
}
