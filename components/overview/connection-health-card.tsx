import { KeyFingerprint } from "@/components/connections/key-fingerprint";
import { Badge } from "@/components/ui/badge";
import { Card, TextSkeleton } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Link } from "@/components/ui/link";
import { StreamedSection } from "@/components/ui/streamed-section";
import { Time } from "@/components/ui/time";
import { connectionAlerts } from "@/lib/alerts/open-alerts";
import type { AlertSummary } from "@/lib/alerts/types";
import { formatCount } from "@/lib/overview/format";
import { connectionEventsHref, connectionRejectionsHref } from "@/lib/overview/links";
import type { ConnectionHealth, EmailOtpPresence } from "@/lib/overview/types";
import { healthFacts, healthVerdict } from "@/lib/overview/verdict";
import { regionLabels } from "@/lib/service/regions";
import { rejectionReasonText } from "@/lib/webhooks/types";

import { AcknowledgedAlertItems, HealthFacts, OpenAlertItems } from "./health-alerts";
import { healthRows } from "./loading-shapes";

const link = "font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300";
const muted = "text-slate-600 dark:text-slate-300";
const term = "text-slate-600 dark:text-slate-300";
const value = "min-w-0 text-slate-900 dark:text-slate-100";

/**
 * One connection's webhook health, on the overview's grid and the connection's page: its state from its open alerts
 * alone, its 24 h facts in neutral words. `emailOtp` streams in on its own line; support gets none of it, nor key
 * fingerprints, nor a link to the admin-only connection page.
 */
export function ConnectionHealthCard({
  health,
  isAdmin,
  emailOtp,
  openAlerts,
  title,
}: {
  health: ConnectionHealth;
  isAdmin: boolean;
  emailOtp?: Promise<EmailOtpPresence>;
  /** The open, unmuted alerts (listOpenAlerts; any connection's): null when they could not be read. */
  openAlerts: AlertSummary[] | null;
  /**
   * The card's heading on the connection's own page (a section of that page: an h2). Unless given, the
   * card is one of the overview's grid under its "Connections" heading: an h3 with the connection's name,
   * a link to its page for admins.
   */
  title?: string;
}) {
  const alerts = openAlerts ? connectionAlerts(openAlerts, health.id) : null;
  const verdict = healthVerdict(
    health,
    alerts && { open: alerts.open.length, acknowledged: alerts.acknowledged.length },
  );
  const connectionPage = `/connections/${health.id}`;
  const serverKey = health.keys.server;
  const Heading = title ? "h2" : "h3";
  return (
    // No height of its own: in the overview's grid the cell stretches and the card fills it; alone it is as tall as
    // it needs.
    <div data-testid="connection-health-card" data-connection={health.name}>
      <Card className="h-full">
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <Heading className="truncate text-base font-semibold text-slate-900 dark:text-slate-100">
              {title ??
                (isAdmin ? (
                  <Link href={connectionPage} className="hover:underline">
                    {health.name}
                  </Link>
                ) : (
                  health.name
                ))}
            </Heading>
            <p className={cn("mt-0.5 text-xs", muted)}>
              {regionLabels[health.region]} · management key{" "}
              {health.verifiedAt ? (
                <>
                  verified <Time iso={health.verifiedAt} />
                </>
              ) : (
                "not verified"
              )}
            </p>
          </div>
          <Badge tone={verdict.tone} className="shrink-0 whitespace-nowrap">
            {verdict.label}
          </Badge>
        </div>
        <p className={cn("mt-2 text-sm", muted)}>{verdict.summary}</p>
        <HealthFacts facts={healthFacts(health)} health={health} />
        {alerts ? (
          <>
            <OpenAlertItems alerts={alerts.open} isAdmin={isAdmin} />
            <AcknowledgedAlertItems alerts={alerts.acknowledged} />
          </>
        ) : null}
        <dl className={healthRows}>
          <dt className={term}>Last event</dt>
          <dd className={value}>{health.lastEventAt ? <Time iso={health.lastEventAt} /> : "none yet"}</dd>
          <dt className={term}>Events, 24 h</dt>
          <dd className={value}>
            <Link
              className={link}
              href={connectionEventsHref(health.id)}
              aria-label={`${formatCount(health.events24h)} events of ${health.name} in the last 24 h`}
            >
              {formatCount(health.events24h)}
            </Link>
          </dd>
          <dt className={term}>Refused, 24 h</dt>
          <dd className={value}>
            <Link
              className={link}
              href={connectionRejectionsHref(health.id)}
              aria-label={`${formatCount(health.rejections24h)} refused deliveries to ${health.name} in the last 24 h`}
            >
              {formatCount(health.rejections24h)}
            </Link>
            {health.topRejectionReason24h ? (
              <span className={muted}>
                {" "}
                · top reason{" "}
                <Link className={link} href={connectionRejectionsHref(health.id, health.topRejectionReason24h.reason)}>
                  {rejectionReasonText(health.topRejectionReason24h.reason).label}
                </Link>{" "}
                ({formatCount(health.topRejectionReason24h.count)})
              </span>
            ) : null}
          </dd>
          <dt className={term}>Server key</dt>
          <dd className={value}>
            {!serverKey ? (
              "not set: events are stored unverified"
            ) : isAdmin ? (
              <>
                <KeyFingerprint value={serverKey} />
                {health.keys.server_secondary ? <span className={muted}> (and a second key)</span> : null}
              </>
            ) : (
              "set: events are verified"
            )}
          </dd>
          {emailOtp ? (
            <>
              <dt className={term}>Email OTP</dt>
              <dd className={value}>
                <StreamedSection
                  title={`The email OTP configuration of ${health.name}`}
                  fallback={<TextSkeleton className="w-24" />}
                >
                  <EmailOtpPresenceText presence={emailOtp} />
                </StreamedSection>
              </dd>
            </>
          ) : null}
        </dl>
      </Card>
    </div>
  );
}

/**
 * The card for one connection's page, streamed: put it in a StreamedSection with ConnectionHealthCardSkeleton as its
 * fallback, handing it `getConnectionHealth([id]).then(([h]) => h)` and the open alerts the layout reads.
 */
export async function StreamedConnectionHealthCard({
  health: pendingHealth,
  openAlerts: pendingAlerts,
  ...props
}: Omit<Parameters<typeof ConnectionHealthCard>[0], "health" | "openAlerts"> & {
  health: Promise<ConnectionHealth | undefined>;
  openAlerts: Promise<AlertSummary[] | null>;
}) {
  const [health, openAlerts] = await Promise.all([pendingHealth, pendingAlerts]);
  return health ? <ConnectionHealthCard health={health} openAlerts={openAlerts} {...props} /> : null;
}

/** Present, absent, or unknown with why: what the service said about the tenant's email OTP configuration. */
async function EmailOtpPresenceText({ presence: pending }: { presence: Promise<EmailOtpPresence> }) {
  const presence = await pending;
  if (presence.kind === "present") return <span data-testid="email-otp-presence">configured</span>;
  if (presence.kind === "absent") return <span data-testid="email-otp-presence">not configured</span>;
  return (
    <span data-testid="email-otp-presence">
      unknown <span className={muted}>({presence.reason})</span>
    </span>
  );
}
