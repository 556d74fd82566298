import type { Metadata } from "next";

import {
  AlertFiltersForm,
  alertFiltersQuery,
  describeIgnoredAlertFilters,
} from "@/components/alerts/alert-filters-form";
import { AlertList } from "@/components/alerts/alert-list";
import { AlertsPageHeader } from "@/components/alerts/alerts-page-header";
import { AlertListSkeleton } from "@/components/alerts/loading-shapes";
import { NoticeTargetsSection } from "@/components/alerts/notice-targets-section";
import { ThresholdsSection } from "@/components/alerts/thresholds-section";
import { StreamedSection } from "@/components/ui/streamed-section";
import { IgnoredFilters } from "@/components/webhooks/ignored-filters";
import { getThresholds, listAlerts, listNoticeTargets, thresholdDefaults } from "@/lib/alerts/alerts";
import { alertFiltersSchema, ALL } from "@/lib/alerts/schemas";
import { requireRole } from "@/lib/auth/guards";
import { listConnections } from "@/lib/connections/connections";
import { getConnectionScope } from "@/lib/connections/current";
import { env } from "@/lib/env";
import { parseFiltersLeniently } from "@/lib/webhooks/filters";

export const metadata: Metadata = { title: "Alerts" };

/** The most alerts one page lists (alertFiltersSchema's limit). */
const MOST = 200;

export default async function AlertsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requireRole("support");
  const isAdmin = user.role === "admin";
  // A hand-edited link costs only its bad parameters, each named by its label; the others apply.
  const params = await searchParams;
  const { filters, ignored } = parseFiltersLeniently(alertFiltersSchema, params, "the alerts");
  // Without a connection in the link, the header's switcher gives the scope (a connection, or all of them).
  if (params.connectionId === undefined) filters.connectionId = (await getConnectionScope()) ?? ALL;
  const connectionId = filters.connectionId === ALL ? null : filters.connectionId;
  // Database reads only, cheap enough to await: the filters, the thresholds and (admins only: support sees
  // nothing of them) the notice targets paint with the heading.
  const [connections, thresholds, targets] = await Promise.all([
    listConnections(),
    connectionId ? getThresholds(connectionId) : null,
    isAdmin ? listNoticeTargets(user.role) : null,
  ]);
  const connection = connections.find((c) => c.id === connectionId);
  const query = alertFiltersQuery(filters);
  const { CONSOLE_ALERT_EVALUATE_SECONDS } = env();
  return (
    <>
      <AlertsPageHeader />
      <IgnoredFilters ignored={describeIgnoredAlertFilters(ignored)} />
      <AlertFiltersForm key={query} filters={filters} linked={params.connectionId !== undefined} />
      <StreamedSection key={`list?${query}`} title="The alerts" fallback={<AlertListSkeleton />}>
        <AlertList
          page={listAlerts(filters, user.role)}
          filtered={query !== ""}
          evaluateSeconds={CONSOLE_ALERT_EVALUATE_SECONDS}
          moreHref={filters.limit < MOST ? `/alerts?${alertFiltersQuery({ ...filters, limit: MOST })}` : null}
          isAdmin={isAdmin}
        />
      </StreamedSection>
      <ThresholdsSection
        selected={connection && thresholds ? { connection, thresholds } : null}
        defaults={thresholdDefaults()}
        isAdmin={isAdmin}
      />
      {targets ? <NoticeTargetsSection targets={targets} /> : null}
    </>
  );
}
