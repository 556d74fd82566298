import { Skeleton } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";

/*
 * The logs' filter bar's frame and its loading state, without the bar's client code (./filter-bar.tsx): a loading.tsx
 * that imported the skeleton from there put the whole bar in the route's first-load JS a second time.
 */

export const barLayout =
  "flex flex-wrap items-end gap-x-3 gap-y-2 rounded-lg bg-white p-3 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-700";

/** The bar's shape before the page's filters are known (loading.tsx): labelled fields, then Apply. */
export function FilterBarSkeleton({ fields = 6 }: { fields?: number }) {
  return (
    <div className="mb-3" aria-hidden="true">
      <Skeleton className="h-9 w-full sm:hidden" />
      <div className={cn(barLayout, "max-sm:hidden")}>
        {Array.from({ length: fields }, (_, i) => (
          <div key={i} className="flex flex-col gap-1">
            <Skeleton className="h-3 w-16" />
            <Skeleton className={cn("h-8", i === 3 ? "w-56" : "w-36")} />
          </div>
        ))}
        <Skeleton className="h-8 w-28" />
      </div>
    </div>
  );
}

/** The events log's bar (./event-filters-form.tsx) before its filters are known: its seven fields. */
export function EventFiltersFormSkeleton() {
  return <FilterBarSkeleton fields={7} />;
}
