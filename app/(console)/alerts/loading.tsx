import { AlertsPageHeader } from "@/components/alerts/alerts-page-header";
import { AlertFiltersFormSkeleton, AlertListSkeleton } from "@/components/alerts/loading-shapes";

export default function AlertsLoading() {
  return (
    <>
      <AlertsPageHeader />
      <div aria-busy="true">
        <span className="sr-only">Loading the alerts…</span>
        <AlertFiltersFormSkeleton />
        <AlertListSkeleton />
      </div>
    </>
  );
}
