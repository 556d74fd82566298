import type { Metadata } from "next";

import { AuditFiltersForm } from "@/components/audit/audit-filters-form";
import { AuditPageHeader } from "@/components/audit/audit-page-header";
import { AuditTable } from "@/components/audit/audit-table";
import { AuditTableSkeleton } from "@/components/audit/loading-shapes";
import { StreamedSection } from "@/components/ui/streamed-section";
import { AUDIT_PAGE_SIZE, listAuditEntries } from "@/lib/audit/audit";
import { auditFilterQuery, parseAuditSearch } from "@/lib/audit/schemas";
import { requireRole } from "@/lib/auth/guards";
import { ALL_CONNECTIONS_SCOPE, getConnectionScope } from "@/lib/connections/current";

export const metadata: Metadata = { title: "Audit" };

export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireRole("admin");
  const params = await searchParams;
  const { filter, typedTimes } = parseAuditSearch(params);
  // Without a connection in the link, the header's switcher gives the scope: one connection's records (with the
  // console's own, which belong to none), or every record.
  if (params.connectionId === undefined) {
    const scope = await getConnectionScope();
    filter.connectionId = scope === ALL_CONNECTIONS_SCOPE ? undefined : (scope ?? undefined);
  }
  return (
    <>
      <AuditPageHeader />
      <AuditFiltersForm filter={filter} typedTimes={typedTimes} linked={params.connectionId !== undefined} />
      <StreamedSection key={auditFilterQuery(filter)} title="The audit records" fallback={<AuditTableSkeleton />}>
        <AuditTable filter={filter} page={listAuditEntries(filter, AUDIT_PAGE_SIZE, { withConsoleWide: true })} />
      </StreamedSection>
    </>
  );
}
