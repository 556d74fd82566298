import { EmptyState } from "@/components/ui/card";
import { Link } from "@/components/ui/link";
import { Time } from "@/components/ui/time";
import { connectionAlerts } from "@/lib/alerts/open-alerts";
import type { AlertSummary } from "@/lib/alerts/types";
import type { ConnectionHealth, OverviewTotals } from "@/lib/overview/types";
import { needsAttention } from "@/lib/overview/verdict";
import { ALL_CONNECTIONS, filtersToQuery } from "@/lib/webhooks/constants";

import { statGrid } from "./loading-shapes";
import { Stat } from "./stat";

/** Before any connection exists: how to connect the first tenant (admins), or who can (support). */
export function NoTenantConnected({ isAdmin }: { isAdmin: boolean }) {
  return (
    <EmptyState
      title="No tenant connected yet"
      action={
        isAdmin ? (
          <Link
            className="rounded-md bg-indigo-600 px-3.5 py-2 text-sm font-medium text-white hover:bg-indigo-700"
            href="/connections/new"
          >
            Add a connection
          </Link>
        ) : undefined
      }
    >
      {isAdmin
        ? "Connect a tenant to look up its data points, manage its email OTP configuration and receive its webhooks."
        : "Webhook history appears here once an administrator has connected a tenant."}
    </EmptyState>
  );
}

/**
 * The three headline numbers over every connection (test events left out); streams in when counted. A connection
 * needs attention while one of its alerts is open and unacknowledged; the acknowledged ones are counted apart.
 */
export async function OverviewStats({
  totals: pendingTotals,
  health: pendingHealth,
  openAlerts: pendingAlerts,
  isAdmin,
}: {
  totals: Promise<OverviewTotals>;
  health: Promise<ConnectionHealth[]>;
  openAlerts: Promise<AlertSummary[] | null>;
  isAdmin: boolean;
}) {
  const [totals, health, openAlerts] = await Promise.all([pendingTotals, pendingHealth, pendingAlerts]);
  const perConnection = health.map((h) => {
    const alerts = openAlerts && connectionAlerts(openAlerts, h.id);
    return alerts && { open: alerts.open.length, acknowledged: alerts.acknowledged.length };
  });
  const attention = perConnection.filter(needsAttention).length;
  const acknowledged = perConnection.reduce((sum, a) => sum + (a?.acknowledged ?? 0), 0);
  return (
    <div className={statGrid}>
      <Stat label="Connected tenants" value={totals.connections} href={isAdmin ? "/connections" : "/data-points"}>
        <span data-testid="overview-attention">
          {openAlerts === null ? (
            "Their alerts could not be read just now."
          ) : attention === 0 ? (
            "None needs attention."
          ) : (
            <a className="font-medium text-red-700 underline underline-offset-2 dark:text-red-300" href="#connections">
              {attention === 1 ? "1 needs attention." : `${attention} need attention.`}
            </a>
          )}
          {acknowledged > 0 ? (
            <span className="text-slate-600 dark:text-slate-300">
              {" "}
              {acknowledged === 1 ? "1 alert acknowledged." : `${acknowledged} alerts acknowledged.`}
            </span>
          ) : null}
        </span>
      </Stat>
      <Stat
        label="Webhook events, last 24 h"
        value={totals.events24h}
        href={`/webhooks?${filtersToQuery({ connectionId: ALL_CONNECTIONS, type: "all", received: "24h", test: "exclude" })}`}
      >
        Last received: <Time iso={totals.lastEventAt} />
      </Stat>
      <Stat
        label="Refused deliveries, last 24 h"
        value={totals.rejections24h}
        href={`/webhooks?${filtersToQuery({ tab: "rejections", connectionId: ALL_CONNECTIONS, received: "24h" })}`}
      >
        {totals.rejections24h > 0 ? "Why: see Rejections below, or open the number." : "None refused."}
      </Stat>
    </div>
  );
}
