"use client";
import { useEffect, useState } from "react";

const localFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

/**
 * A UTC instant shown in the reader's local time, with the UTC value on hover.
 * The server renders UTC; the browser swaps in local time after hydration.
 */
export function Time({ iso, className }: { iso: string | null | undefined; className?: string }) {
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => {
    if (iso) setLocal(localFormat.format(new Date(iso)));
  }, [iso]);
  if (!iso) return <span className="text-slate-400">—</span>;
  return (
    <time dateTime={iso} title={`${iso} (UTC)`} className={className}>
      {local ?? iso.replace("T", " ").replace(/\.\d+Z$|Z$/, " UTC")}
    </time>
  );
}
