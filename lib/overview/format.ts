/**
 * How the charts name their slots: UTC, English, the same text on the server (tables) and in the
 * browser (axes and tooltips), whatever the reader's locale. Client-safe.
 */
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const two = (n: number) => String(n).padStart(2, "0");

/** "Mon 2 Jun" */
export function formatDayUtc(iso: string): string {
  const d = new Date(iso);
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

/** A day as a narrow axis label in two lines: ["Mon", "2"]. */
export function dayTickUtc(iso: string): [string, string] {
  const d = new Date(iso);
  return [WEEKDAYS[d.getUTCDay()]!, String(d.getUTCDate())];
}

/** "14:00–15:00" */
export function formatHourRangeUtc(iso: string): string {
  const hour = new Date(iso).getUTCHours();
  return `${two(hour)}:00–${two((hour + 1) % 24)}:00`;
}

/** "Mon 2 Jun, 14:00–15:00 UTC" */
export function formatHourUtc(iso: string): string {
  return `${formatDayUtc(iso)}, ${formatHourRangeUtc(iso)} UTC`;
}

export const formatCount = (n: number) => n.toLocaleString("en");
