import { ConnectionHealthCardSkeleton } from "@/components/overview/connection-health-card";
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
      <div className="grid gap-6 xl:grid-cols-[minmax(0,36rem)_1fr]">
        <Card>
          <Skeleton className="h-[34rem]" />
        </Card>
        <div className="space-y-6">
          <ConnectionHealthCardSkeleton />
          <Card>
            <Skeleton className="h-40" />
          </Card>
          <Card>
            <Skeleton className="h-32" />
          </Card>
          <Card>
            <Skeleton className="h-24" />
          </Card>
        </div>
      </div>
    </div>
  );
}
