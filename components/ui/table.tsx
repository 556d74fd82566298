import { Skeleton } from "./card";
import { cn } from "./cn";

export function Table({
  caption,
  children,
  className,
  tableClassName,
}: {
  caption?: string;
  children: React.ReactNode;
  className?: string;
  tableClassName?: string;
}) {
  // `relative` keeps absolutely positioned content (the sr-only caption and labels) inside the scroll
  // box; without it they are placed against the page and widen it on narrow screens. A box that may
  // scroll must be reachable by keyboard (axe scrollable-region-focusable): a named, focusable region.
  return (
    <div
      role={caption ? "region" : undefined}
      aria-label={caption}
      tabIndex={caption ? 0 : undefined}
      className={cn(
        "relative overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800",
        className,
      )}
    >
      <table className={cn("min-w-full divide-y divide-slate-200 text-left text-sm dark:divide-slate-800", tableClassName)}>
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        {children}
      </table>
    </div>
  );
}

export function Th({ children, className }: { children?: React.ReactNode; className?: string }) {
  return (
    <th scope="col" className={cn("whitespace-nowrap bg-slate-50 px-3 py-2.5 text-xs font-semibold uppercase tracking-wide text-slate-600 dark:bg-slate-800/60 dark:text-slate-300", className)}>
      {children}
    </th>
  );
}

export function Td({ children, className }: { children?: React.ReactNode; className?: string }) {
  return <td className={cn("whitespace-nowrap px-3 py-2.5 text-slate-800 dark:text-slate-200", className)}>{children}</td>;
}

/** A header row of plain column names. */
export function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <Th key={column}>{column}</Th>
        ))}
      </tr>
    </thead>
  );
}

/**
 * A table's shape while its rows are read: the real column names over `rows` rows of placeholders.
 * Hidden from assistive technology (an empty table would be announced as data); the streamed section
 * around it says in words that it is loading.
 */
export function TableSkeleton({ columns, rows }: { columns: readonly string[]; rows: number }) {
  return (
    <div aria-hidden="true">
      <Table>
        <TableHead columns={columns} />
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {Array.from({ length: rows }, (_, row) => (
            <tr key={row}>
              {columns.map((column) => (
                <Td key={column}>
                  <Skeleton className="h-5 w-24" />
                </Td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}
