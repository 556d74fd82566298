import { Skeleton } from "@/components/ui/card";
import { FieldSkeleton } from "@/components/ui/input";

/*
 * What the Data points page paints before it is read: the lookup form's and the watch list's shapes, without their
 * client code (./lookup-form.tsx, ./watch-list.tsx): data-points/loading.tsx imports this, and a client module
 * reached from a loading.tsx is sent again in the route's first-load JS beside the page's own copy.
 */

/** The lookup form's row (./lookup-form.tsx). */
export const lookupFormRow = "flex max-w-xl items-end gap-2";

/** The form's shape (label, field, button) for the page's loading state, which cannot know the id yet. */
export function DataPointLookupFormSkeleton() {
  return (
    <div className={lookupFormRow}>
      <FieldSkeleton className="flex-1" />
      <Skeleton className="h-9 w-24" />
    </div>
  );
}

/** The list's shape for the page's loading state: its heading, the refresh button and a block for the rows. */
export function WatchListSkeleton() {
  return (
    <div aria-busy="true" className="space-y-3">
      <span className="sr-only">Reading the watch list…</span>
      <div className="flex items-center justify-between">
        <Skeleton className="h-6 w-24" />
        <Skeleton className="h-8 w-24" />
      </div>
      <Skeleton className="h-36 w-full" />
    </div>
  );
}
