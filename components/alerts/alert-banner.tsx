"use client";

import { Alert } from "@/components/ui/card";
import { Link } from "@/components/ui/link";
import { ALERT_KIND_LABELS } from "@/lib/alerts/kind-labels";

import { useOpenAlerts } from "./open-alerts";

/** How many conditions the banner names before "and n more". */
const NAMED = 3;

/**
 * The console layout's banner while an alert needs someone (open, not muted, not acknowledged): how many, the first
 * few in words, how many others were acknowledged, and a link to them (./open-alerts.tsx keeps them fresh). Streamed
 * without a fallback, so it never holds the page; null (the alerts could not be read) or none to act on shows nothing.
 */
export function AlertBanner() {
  const all = useOpenAlerts() ?? [];
  const alerts = all.filter((a) => !a.acknowledged);
  if (alerts.length === 0) return null;
  const acknowledged = all.length - alerts.length;
  // One phrase per condition and connection (a connection's two failing destinations are one phrase).
  const phrases = [...new Set(alerts.map((a) => `${ALERT_KIND_LABELS[a.kind]} on ${a.connectionName}`))];
  const rest = phrases.length - NAMED;
  return (
    <section aria-label="Open alerts" data-testid="alert-banner" className="mb-6">
      <Alert tone="warning" title={alerts.length === 1 ? "1 open alert" : `${alerts.length} open alerts`}>
        <p className="[overflow-wrap:anywhere]">
          {phrases.slice(0, NAMED).join(" · ")}
          {rest > 0 ? ` · and ${rest} more` : ""}.{" "}
          {acknowledged > 0 ? (
            <span data-testid="alert-banner-acknowledged">
              {acknowledged === 1 ? "1 other is acknowledged." : `${acknowledged} others are acknowledged.`}{" "}
            </span>
          ) : null}
          <Link href="/alerts?state=open" className="font-semibold whitespace-nowrap underline underline-offset-2">
            See the alerts
          </Link>
        </p>
      </Alert>
    </section>
  );
}

/** The navigation's count of the alerts that need someone beside "Alerts" (acknowledged ones left out); or nothing. */
export function OpenAlertCount() {
  const count = useOpenAlerts()?.filter((a) => !a.acknowledged).length ?? 0;
  if (count === 0) return null;
  // To a screen reader the link says "Alerts (2 open)": the pill is for the eye only.
  return (
    <>
      <span className="sr-only"> ({count} open)</span>
      <span
        aria-hidden="true"
        className="ml-2 inline-flex min-w-5 items-center justify-center rounded-full bg-red-600 px-1.5 text-xs leading-5 font-semibold text-white"
      >
        {count}
      </span>
    </>
  );
}
