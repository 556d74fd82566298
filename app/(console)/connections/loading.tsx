import { ConnectionsPageHeader } from "@/components/connections/connections-page-header";
import { ConnectionTableSkeleton } from "@/components/connections/loading-shapes";

export default function ConnectionsLoading() {
  return (
    <>
      <ConnectionsPageHeader />
      <div aria-busy="true">
        <span className="sr-only">Loading the connections…</span>
        <ConnectionTableSkeleton />
      </div>
    </>
  );
}
