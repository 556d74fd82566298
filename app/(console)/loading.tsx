import {
  ConnectionHealthGridSkeleton,
  OverviewHeader,
  OverviewStatsSkeleton,
} from "@/components/overview/loading-shapes";

/** The overview's heading and the shape of its first sections, while the session and the connections are read. */
export default function Loading() {
  return (
    <div aria-busy="true">
      <p role="status" className="sr-only">
        Loading the overview…
      </p>
      <OverviewHeader />
      <div className="space-y-8">
        <OverviewStatsSkeleton />
        <ConnectionHealthGridSkeleton count={2} />
      </div>
    </div>
  );
}
