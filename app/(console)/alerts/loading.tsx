import { AlertFiltersFormSkeleton } from "@/components/alerts/alert-filters-form";
import { AlertListSkeleton } from "@/components/alerts/alert-list";
import { AlertsPageHeader } from "@/components/alerts/alerts-page-header";

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
