import { Skeleton } from "@/components/ui/card";

/**
 * The shape of either log (events or rejections) while its query runs: the line of toolbar and export
 * links, a full page of table rows (`rows`, the page size) and the paging links.
 */
export function WebhookLogSkeleton({ rows }: { rows: number }) {
  return (
    <>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <Skeleton className="h-5 w-56" />
        <div className="flex gap-2">
          <Skeleton className="h-8 w-32" />
          <Skeleton className="h-8 w-36" />
        </div>
      </div>
      {/* Header and row heights of components/ui/table: th 36 px, td 40 px, 1 px dividers. */}
      <div className="overflow-hidden rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
        <div className="h-9 border-b border-slate-200 bg-slate-50" />
        <div className="divide-y divide-slate-100">
          {Array.from({ length: rows }, (_, i) => (
            <div key={i} className="px-3 py-2.5">
              <Skeleton className="h-5 w-full" />
            </div>
          ))}
        </div>
      </div>
      <Skeleton className="mt-3 h-5 w-20" />
    </>
  );
}
