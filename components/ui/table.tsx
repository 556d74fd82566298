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
      <table
        className={cn("min-w-full divide-y divide-slate-200 text-left text-sm dark:divide-slate-800", tableClassName)}
      >
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        {children}
      </table>
    </div>
  );
}

export function Th({ children, className }: { children?: React.ReactNode; className?: string }) {
  return (
    <th
      scope="col"
      className={cn(
        "whitespace-nowrap bg-slate-50 px-3 py-2.5 text-xs font-semibold uppercase tracking-wide text-slate-600 dark:bg-slate-800/60 dark:text-slate-300",
        className,
      )}
    >
      {children}
    </th>
  );
}

export function Td({ children, className }: { children?: React.ReactNode; className?: string }) {
  return (
    <td className={cn("whitespace-nowrap px-3 py-2.5 text-slate-800 dark:text-slate-200", className)}>{children}</td>
  );
}

/**
 * Rows as cards below `xl` (1280 px) and as a table from there: for a table of more columns than a
 * narrower window holds. `cards` are RowCards, `rows` the table's rows, each list in the same order.
 */
export function CardsOrTable({
  label,
  columns,
  cards,
  rows,
}: {
  label: string;
  columns: readonly string[];
  cards: React.ReactNode;
  rows: React.ReactNode;
}) {
  return (
    <>
      <ul aria-label={label} className="space-y-3 xl:hidden">
        {cards}
      </ul>
      <Table caption={label} className="hidden xl:block">
        <TableHead columns={columns} />
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">{rows}</tbody>
      </Table>
    </>
  );
}

/** One row as a card: its title and a line under it, an action on the right, then its fields (CardField). */
export function RowCard(props: {
  title: React.ReactNode;
  subtitle: React.ReactNode;
  action: React.ReactNode;
  children: React.ReactNode;
  testId?: string;
}) {
  return (
    <li
      className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800"
      data-testid={props.testId}
    >
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          {props.title}
          <p className="text-sm text-slate-600 dark:text-slate-400">{props.subtitle}</p>
        </div>
        <div className="shrink-0">{props.action}</div>
      </div>
      <CardFields>{props.children}</CardFields>
    </li>
  );
}

/** A row's fields in its card on a phone, where the table does not fit: a grid of terms and values. */
export function CardFields({ children }: { children: React.ReactNode }) {
  return <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1.5 text-sm">{children}</dl>;
}

/** One term and its value in CardFields. */
export function CardField({
  term,
  children,
  className,
}: {
  term: string;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <>
      <dt className="text-slate-600 dark:text-slate-400">{term}</dt>
      <dd className={cn("text-slate-800 dark:text-slate-200", className)}>{children}</dd>
    </>
  );
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
