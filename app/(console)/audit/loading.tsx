import { AuditFiltersFormSkeleton } from "@/components/audit/audit-filters-form";
import { AuditPageHeader } from "@/components/audit/audit-page-header";
import { AuditTableSkeleton } from "@/components/audit/audit-table";

export default function AuditLoading() {
  return (
    <>
      <AuditPageHeader />
      <div aria-busy="true">
        <span className="sr-only">Loading the audit log…</span>
        <AuditFiltersFormSkeleton />
        <AuditTableSkeleton />
      </div>
    </>
  );
}
