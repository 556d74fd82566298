import { Card, Skeleton } from "@/components/ui/card";

/*
 * What the Alerts page paints before it is read: the filters' frame and the list's shape. No client component is
 * imported here, nor by what this imports: alerts/loading.tsx imports it, and a client module reached from a
 * loading.tsx is sent again in the route's first-load JS beside the page's own copy.
 */

/** The filters form's frame (./alert-filters-form.tsx). */
export const alertFiltersLayout =
  "mb-6 grid gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 lg:grid-cols-3 lg:items-end dark:bg-slate-900 dark:ring-slate-800";

/** The form's frame before the page is read: its two fields and its buttons. */
export function AlertFiltersFormSkeleton() {
  return (
    <div className={alertFiltersLayout} aria-hidden="true">
      {Array.from({ length: 3 }, (_, i) => (
        <Skeleton key={i} className="h-16" />
      ))}
    </div>
  );
}

/** The list's shape while it is read: the evaluation line and three alerts. */
export function AlertListSkeleton() {
  return (
    <div aria-hidden="true">
      <Skeleton className="mb-3 h-5 w-80 max-w-full" />
      <div className="space-y-3">
        {Array.from({ length: 3 }, (_, i) => (
          <Card key={i} className="space-y-3">
            <div className="flex justify-between gap-2">
              <Skeleton className="h-6 w-64 max-w-full" />
              <Skeleton className="h-5 w-16" />
            </div>
            <Skeleton className="h-5 w-full" />
            <Skeleton className="h-5 w-48" />
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-8 w-full" />
          </Card>
        ))}
      </div>
    </div>
  );
}
