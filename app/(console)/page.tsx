import type { Metadata } from "next";

import { ChartCardSkeleton } from "@/components/overview/chart-card";
import {
  DelayHistogramSection,
  ExpiredPerHourSection,
  RejectionsPerDaySection,
} from "@/components/overview/chart-sections";
import { ConnectionHealthGrid } from "@/components/overview/connection-health-grid";
import { ExpiredToday, ExpiredTodaySkeleton } from "@/components/overview/expired-today";
import {
  ConnectionHealthGridSkeleton,
  OverviewHeader,
  OverviewStatsSkeleton,
} from "@/components/overview/loading-shapes";
import { NoTenantConnected, OverviewStats } from "@/components/overview/overview-stats";
import { StreamedSection } from "@/components/ui/streamed-section";
import { requireUser } from "@/lib/auth/guards";
import { listConnectionChoices } from "@/lib/connections/repository";
import {
  getConnectionHealth,
  getDelayHistogram,
  getEmailOtpPresence,
  getExpiredPerHour,
  getOverviewTotals,
  getRecentExpiries,
  getRejectionsPerDay,
  RECENT_EXPIRIES,
} from "@/lib/overview/overview";

import { readOpenAlerts } from "./open-alerts";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  const user = await requireUser();
  const isAdmin = user.role === "admin";
  const connections = await listConnectionChoices();
  if (connections.length === 0) {
    return (
      <>
        <OverviewHeader withDescription={false} />
        <NoTenantConnected isAdmin={isAdmin} />
      </>
    );
  }
  // Every section's query starts now and streams in on its own; the health promise feeds two of them.
  const health = getConnectionHealth();
  // The cards' state and the headline count come from the open alerts alone (the layout's one read).
  const openAlerts = readOpenAlerts();
  // The service is asked about each tenant's email OTP configuration (admins only) at once, not card by card.
  const emailOtp = isAdmin ? new Map(connections.map((c) => [c.id, getEmailOtpPresence(c.id)])) : undefined;
  return (
    <>
      <OverviewHeader />
      <div className="space-y-8">
        <StreamedSection title="The overview numbers" fallback={<OverviewStatsSkeleton />}>
          <OverviewStats
            totals={health.then((h) => getOverviewTotals(h))}
            health={health}
            openAlerts={openAlerts}
            isAdmin={isAdmin}
          />
        </StreamedSection>
        <section id="connections" aria-labelledby="connections-title" className="scroll-mt-4">
          <h2 id="connections-title" className="mb-3 text-lg font-semibold text-slate-900 dark:text-slate-100">
            Connections
          </h2>
          <StreamedSection
            title="The connections' health"
            fallback={<ConnectionHealthGridSkeleton count={connections.length} />}
          >
            <ConnectionHealthGrid health={health} isAdmin={isAdmin} emailOtp={emailOtp} openAlerts={openAlerts} />
          </StreamedSection>
        </section>
        <div className="grid gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <StreamedSection title="The latest expiries" fallback={<ExpiredTodaySkeleton rows={RECENT_EXPIRIES} />}>
            <ExpiredToday expiries={getRecentExpiries()} />
          </StreamedSection>
          <StreamedSection title="The delivery delay chart" fallback={<ChartCardSkeleton className="h-full" />}>
            <DelayHistogramSection data={getDelayHistogram()} />
          </StreamedSection>
        </div>
        <StreamedSection title="The expiries per hour chart" fallback={<ChartCardSkeleton />}>
          <ExpiredPerHourSection data={getExpiredPerHour()} />
        </StreamedSection>
        <StreamedSection title="The refusals chart" fallback={<ChartCardSkeleton />}>
          <RejectionsPerDaySection data={getRejectionsPerDay()} />
        </StreamedSection>
      </div>
    </>
  );
}
