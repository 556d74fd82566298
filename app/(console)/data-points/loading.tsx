import { DataPointLookupFormSkeleton, WatchListSkeleton } from "@/components/data-points/loading-shapes";
import { PageHeader, TextSkeleton } from "@/components/ui/card";

export default function DataPointsLoading() {
  return (
    <>
      <PageHeader title="Data points" description={<TextSkeleton className="w-96 max-w-full" />} />
      <div className="space-y-6">
        <DataPointLookupFormSkeleton />
        <WatchListSkeleton />
      </div>
    </>
  );
}
