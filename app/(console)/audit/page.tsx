import type { Metadata } from "next";

import { AuditFiltersForm } from "@/components/audit/audit-filters-form";
import { AuditPageHeader } from "@/components/audit/audit-page-header";
import { AuditTable, AuditTableSkeleton } from "@/components/audit/audit-table";
import { StreamedSection } from "@/components/ui/streamed-section";
import { listAuditEntries } from "@/lib/audit/audit";
import { auditFilterQuery, parseAuditSearch } from "@/lib/audit/schemas";
import { requireRole } from "@/lib/auth/guards";
import { listConnectionChoices } from "@/lib/connections/repository";

export const metadata: Metadata = { title: "Audit" };

export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireRole("admin");
  const { filter, typedTimes } = parseAuditSearch(await searchParams);
  const connections = await listConnectionChoices();
  return (
    <>
      <AuditPageHeader />
      <AuditFiltersForm filter={filter} typedTimes={typedTimes} connections={connections} />
      <StreamedSection key={auditFilterQuery(filter)} title="The audit records" fallback={<AuditTableSkeleton />}>
        <AuditTable filter={filter} page={listAuditEntries(filter)} />
      </StreamedSection>
    </>
  );
}
