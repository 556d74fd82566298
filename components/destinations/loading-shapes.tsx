import { ChartCardSkeleton } from "@/components/overview/chart-card";
import { Card, Skeleton } from "@/components/ui/card";
import { TableSkeleton } from "@/components/ui/table";

/*
 * A destination's page's shape before it is read, without the page's client code (./destination-page.tsx):
 * destinations/[id]/loading.tsx imports this, and a client module reached from a loading.tsx is sent again in the
 * route's first-load JS beside the page's own copy. Nothing here reaches a client module but the layout's Link.
 */

/** The attempts table's columns (./attempt-list.tsx). */
export const ATTEMPT_COLUMNS = ["Started", "Outcome", "Status", "Duration", "Event", "Sent by"] as const;

/** The page's shape while it is read: the heading, the card, two charts and the attempts. */
export function DestinationPageSkeleton() {
  return (
    <div aria-busy="true">
      <span className="sr-only">Loading the destination…</span>
      <div className="mb-6 space-y-2">
        <Skeleton className="h-8 w-64" />
        <Skeleton className="h-4 w-96 max-w-full" />
      </div>
      <div className="space-y-6">
        <Card>
          <Skeleton className="h-44" />
        </Card>
        <div className="grid gap-6 2xl:grid-cols-2">
          <ChartCardSkeleton />
          <ChartCardSkeleton />
        </div>
        <Skeleton className="h-6 w-32" />
        <TableSkeleton columns={ATTEMPT_COLUMNS} rows={8} />
      </div>
    </div>
  );
}
