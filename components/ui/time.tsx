"use client";
import { useSyncExternalStore } from "react";

// Compact enough for table columns: the year only when it is not this year, a 24-hour clock with seconds.
const thisYear = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
const otherYear = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
const noSubscription = () => () => {};

function formatLocal(date: Date): string {
  return (date.getFullYear() === new Date().getFullYear() ? thisYear : otherYear).format(date);
}

/**
 * A UTC instant shown in the reader's local time, with the UTC value on hover.
 * The server renders UTC (it cannot know the reader's zone); the browser renders local time.
 */
export function Time({ iso, className }: { iso: string | null | undefined; className?: string }) {
  const inBrowser = useSyncExternalStore(noSubscription, () => true, () => false);
  if (!iso) return <span className="text-slate-400">—</span>;
  return (
    <time dateTime={iso} title={`${iso} (UTC)`} className={className}>
      {inBrowser ? formatLocal(new Date(iso)) : iso.replace("T", " ").replace(/(\.\d+)?Z$/, " UTC")}
    </time>
  );
}
