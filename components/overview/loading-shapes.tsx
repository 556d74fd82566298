import { Card, PageHeader, Skeleton } from "@/components/ui/card";

import { StatSkeleton } from "./stat";

/*
 * What the overview and a connection's page paint before their numbers: the heading and the shapes of the stats and
 * the health cards. No client component is imported here, nor by what this imports: a loading.tsx imports it, and a
 * client module reached from a loading.tsx is sent again in the route's first-load JS beside the page's own copy.
 */

export const statGrid = "grid gap-4 sm:grid-cols-3";
export const healthGrid = "grid gap-4 md:grid-cols-2 2xl:grid-cols-3";
export const healthRows = "mt-4 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm";

/** The page's heading, painted before any number (the page's loading state shows it too). */
export function OverviewHeader({ withDescription = true }: { withDescription?: boolean }) {
  return (
    <PageHeader
      title="Overview"
      description={
        withDescription
          ? "Which tenants are connected and healthy, what expired and for whom, how late events arrive and why deliveries were refused. Test events are left out."
          : undefined
      }
    />
  );
}

/** The three stats' shape while the numbers are counted. */
export function OverviewStatsSkeleton() {
  return (
    <div className={statGrid}>
      <StatSkeleton />
      <StatSkeleton />
      <StatSkeleton />
    </div>
  );
}

/** As many card skeletons as there are connections (up to six: the rest are below the fold). */
export function ConnectionHealthGridSkeleton({ count }: { count: number }) {
  return (
    <div className={healthGrid}>
      {Array.from({ length: Math.min(count, 6) }, (_, i) => (
        <ConnectionHealthCardSkeleton key={i} />
      ))}
    </div>
  );
}

/** The card's shape while the numbers are counted: heading and badge, summary, five rows. */
export function ConnectionHealthCardSkeleton() {
  return (
    <Card>
      <div className="flex items-start justify-between gap-3">
        <div>
          <Skeleton className="h-6 w-32" />
          <Skeleton className="mt-1 h-4 w-48" />
        </div>
        <Skeleton className="h-5 w-16" />
      </div>
      <Skeleton className="mt-2 h-5 w-full" />
      <div className={healthRows}>
        {Array.from({ length: 5 }, (_, i) => (
          <div key={i} className="contents">
            <Skeleton className="h-5 w-24" />
            <Skeleton className="h-5 w-32" />
          </div>
        ))}
      </div>
    </Card>
  );
}
