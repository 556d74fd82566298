import { DataPointLookupFormSkeleton } from "@/components/data-points/lookup-form";
import { WatchListSkeleton } from "@/components/data-points/watch-list";
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
