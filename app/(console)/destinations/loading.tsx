import { DestinationListSkeleton } from "@/components/destinations/destination-list-skeleton";
import { PageHeader, TextSkeleton } from "@/components/ui/card";

export default function DestinationsLoading() {
  return (
    <>
      <PageHeader title="Destinations" description={<TextSkeleton className="w-96 max-w-full" />} />
      <DestinationListSkeleton />
    </>
  );
}
