"use client";

import { useNow } from "@/components/ui/now";
import { formatRelative, formatUtc } from "@/lib/time-format";

import { useViewerZone } from "./viewer-zone";

/** "14:03:22" in `zone`, with the day ("1 Dec 14:03:22") unless it is the day of `now` there. */
export function formatInZone(iso: string, zone: string, now: number | null): string {
  const at = new Date(iso);
  const time = at.toLocaleTimeString("en-GB", { timeZone: zone, hourCycle: "h23" });
  const day = (d: Date) => d.toLocaleDateString("en-GB", { timeZone: zone, day: "numeric", month: "short" });
  return now !== null && day(at) === day(new Date(now)) ? time : `${day(at)} ${time}`;
}

/**
 * When a row was received: the absolute time in the viewer's zone, then how long ago ("14:03:22 · 2 min ago"; from
 * `lg`, in a table's column, on a line of its own), the UTC instant in the title. The server renders in the zone the
 * reader's cookie names (./viewer-zone.tsx).
 */
export function ReceivedTime({ iso, className }: { iso: string; className?: string }) {
  const zone = useViewerZone();
  const now = useNow();
  const exact = formatUtc(iso);
  return (
    <span className={className} title={exact} data-testid="received-time">
      <time dateTime={iso} className="tabular-nums">
        {formatInZone(iso, zone, now)}
      </time>
      {now === null ? null : (
        <span className="text-slate-600 lg:block lg:text-xs dark:text-slate-300">
          <span className="lg:hidden"> · </span>
          {formatRelative(iso, now)}
        </span>
      )}
    </span>
  );
}
