import { Card, Skeleton } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Link } from "@/components/ui/link";

import { CHART_HEIGHT_CLASS } from "./chart-size";

export type LegendItem = { label: string; colour: string };

/**
 * A chart's frame: its title, what it shows, its legend, the chart (or why there is none) and the same
 * numbers as a table behind "Show as table", for screen readers, keyboards and copying.
 */
export function ChartCard({
  id,
  title,
  description,
  legend,
  empty,
  chart,
  table,
  className,
}: {
  id: string;
  title: string;
  description: React.ReactNode;
  legend: LegendItem[];
  /** Said instead of the chart and table when there is nothing to draw. */
  empty: string | null;
  chart: React.ReactNode;
  table: React.ReactNode;
  className?: string;
}) {
  return (
    <Card className={cn("min-w-0", className)}>
      <section aria-labelledby={`${id}-title`} data-testid={id}>
        <h2 id={`${id}-title`} className="text-base font-semibold text-slate-900 dark:text-slate-100">
          {title}
        </h2>
        <div className="mt-1 text-sm text-slate-600 dark:text-slate-300">{description}</div>
        {empty ? (
          <p className="mt-4 rounded-md border border-dashed border-slate-300 px-4 py-10 text-center text-sm text-slate-600 dark:border-slate-600 dark:text-slate-300">
            {empty}
          </p>
        ) : (
          <>
            <ul
              aria-label={`Legend of ${title}`}
              className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700 dark:text-slate-200"
            >
              {legend.map((item) => (
                <li key={item.label} className="flex items-center gap-1.5">
                  <span
                    aria-hidden="true"
                    className="inline-block size-3 rounded-sm"
                    style={{ background: item.colour }}
                  />
                  {item.label}
                </li>
              ))}
            </ul>
            <div className={cn("mt-3", CHART_HEIGHT_CLASS)}>{chart}</div>
            <details className="mt-3 text-sm">
              <summary className="cursor-pointer font-medium text-indigo-700 hover:underline dark:text-indigo-300">
                Show as table
              </summary>
              <div className="mt-2">{table}</div>
            </details>
          </>
        )}
      </section>
    </Card>
  );
}

/** A chart card's shape while its numbers are counted. */
export function ChartCardSkeleton({ className }: { className?: string }) {
  return (
    <Card className={cn("min-w-0", className)}>
      <Skeleton className="h-6 w-56" />
      <Skeleton className="mt-1 h-5 w-full max-w-md" />
      <Skeleton className="mt-3 h-4 w-64" />
      <Skeleton className={cn("mt-3 w-full", CHART_HEIGHT_CLASS)} />
      <Skeleton className="mt-3 h-5 w-28" />
    </Card>
  );
}

/** A count in a table cell, linking to the log rows it counts (a zero links nowhere). */
export function CountLink({ count, href, label }: { count: number; href: string; label: string }) {
  if (count === 0) return <span className="text-slate-500 dark:text-slate-400">0</span>;
  return (
    <Link
      href={href}
      aria-label={label}
      className="font-medium tabular-nums text-indigo-700 hover:underline dark:text-indigo-300"
    >
      {count.toLocaleString("en")}
    </Link>
  );
}
