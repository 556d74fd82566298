import { ConnectionHealthCardSkeleton } from "@/components/overview/loading-shapes";
import { Card, Skeleton } from "@/components/ui/card";

// Without it the connections list's loading state (its heading and table) would show on the way here.
// The connection's name is not known before it is read, so the heading is a skeleton too.
export default function ConnectionLoading() {
  return (
    <div aria-busy="true">
      <span className="sr-only">Loading the connection…</span>
      <div className="mb-6 space-y-2">
        <Skeleton className="h-8 w-64" />
        <Skeleton className="h-4 w-96 max-w-full" />
      </div>
      {/* The tabs' row, then the first tab (settings beside health and the danger zone). */}
      <div className="mb-6 flex gap-4 border-b border-slate-200 pb-2 dark:border-slate-800">
        <Skeleton className="h-6 w-20" />
        <Skeleton className="h-6 w-24" />
        <Skeleton className="h-6 w-28" />
      </div>
      <div className="grid items-start gap-6 xl:grid-cols-[minmax(0,36rem)_minmax(0,1fr)]">
        <Card>
          <Skeleton className="h-[34rem]" />
        </Card>
        <div className="space-y-6">
          <ConnectionHealthCardSkeleton />
          <Card>
            <Skeleton className="h-28" />
          </Card>
        </div>
      </div>
    </div>
  );
}
