"use client";
import { useSyncExternalStore } from "react";

const localFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });
const noSubscription = () => () => {};

/**
 * A UTC instant shown in the reader's local time, with the UTC value on hover.
 * The server renders UTC (it cannot know the reader's zone); the browser renders local time.
 */
export function Time({ iso, className }: { iso: string | null | undefined; className?: string }) {
  const inBrowser = useSyncExternalStore(noSubscription, () => true, () => false);
  if (!iso) return <span className="text-slate-400">—</span>;
  return (
    <time dateTime={iso} title={`${iso} (UTC)`} className={className}>
      {inBrowser ? localFormat.format(new Date(iso)) : iso.replace("T", " ").replace(/(\.\d+)?Z$/, " UTC")}
    </time>
  );
}
