"use client";

import { formatRelative, formatUtc } from "@/lib/time-format";

import { cn } from "./cn";
import { useNow } from "./now";

/**
 * A UTC instant, relative to now ("3 min ago") by default, with the exact UTC value in its title and
 * dateTime. Server and client render the same text (see ./now). `absolute` shows the UTC value itself.
 */
export function Time({
  iso,
  className,
  absolute = false,
}: {
  iso: string | null | undefined;
  className?: string;
  absolute?: boolean;
}) {
  const now = useNow();
  if (!iso) return <span className="text-slate-600 dark:text-slate-400">—</span>;
  const exact = formatUtc(iso);
  return (
    <time dateTime={iso} title={exact} className={cn("whitespace-nowrap", className)}>
      {absolute || now === null ? exact : formatRelative(iso, now)}
    </time>
  );
}

/** Where there is room (a drawer, a detail): the exact UTC instant, then how long ago. */
export function ExactTime({ iso }: { iso: string }) {
  return (
    <>
      <span className="font-mono text-xs">{formatUtc(iso)}</span>{" "}
      <span className="text-slate-600 dark:text-slate-400">
        (<Time iso={iso} />)
      </span>
    </>
  );
}
