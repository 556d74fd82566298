import { Skeleton } from "@/components/ui/card";

/**
 * The shape of either log (events or rejections) while its query runs: the toolbar line (follow live,
 * exports), a full page of rows (`rows`, the page size) at the table's row height, and the pager.
 */
export function WebhookLogSkeleton({ rows }: { rows: number }) {
  return (
    <>
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <Skeleton className="h-5 w-40" />
        <div className="flex gap-2">
          <Skeleton className="h-8 w-28" />
          <Skeleton className="h-8 w-32" />
        </div>
      </div>
      {/* Header and row heights of components/ui/table: th 36 px, td 40 px, 1 px dividers. */}
      <div className="overflow-hidden rounded-lg bg-white dark:bg-slate-900 shadow-sm ring-1 ring-slate-200 dark:ring-slate-700">
        <div className="h-9 border-b border-slate-200 dark:border-slate-700 bg-slate-50 dark:bg-slate-800" />
        <div className="divide-y divide-slate-100 dark:divide-slate-800">
          {Array.from({ length: rows }, (_, i) => (
            <div key={i} className="flex gap-4 px-3 py-2.5">
              <Skeleton className="h-5 w-20" />
              <Skeleton className="h-5 flex-1" />
              <Skeleton className="hidden h-5 w-28 sm:block" />
              <Skeleton className="hidden h-5 w-24 lg:block" />
              <Skeleton className="hidden h-5 w-16 md:block" />
              <Skeleton className="h-5 w-20" />
            </div>
          ))}
        </div>
      </div>
      <Skeleton className="mt-3 h-8 w-24" />
    </>
  );
}
