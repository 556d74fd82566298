import { AuditPageHeader } from "@/components/audit/audit-page-header";
import { AuditFiltersFormSkeleton, AuditTableSkeleton } from "@/components/audit/loading-shapes";

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
