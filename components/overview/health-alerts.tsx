import { Link } from "@/components/ui/link";
import { Time } from "@/components/ui/time";
import { ALERT_KIND_TEXT } from "@/lib/alerts/constants";
import { serverKeyHref } from "@/lib/alerts/display";
import type { AlertSummary } from "@/lib/alerts/types";
import { formatCount } from "@/lib/overview/format";
import { connectionRejectionsHref } from "@/lib/overview/links";
import type { ConnectionHealth } from "@/lib/overview/types";
import type { HealthFact } from "@/lib/overview/verdict";

const action = "font-semibold underline underline-offset-2";
const neutralLink = "font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300";

const boxes = {
  open: "bg-red-50 text-red-900 ring-red-200 dark:bg-red-950/60 dark:text-red-100 dark:ring-red-800",
  acknowledged:
    "bg-slate-50 text-slate-700 ring-slate-200 dark:bg-slate-800/60 dark:text-slate-200 dark:ring-slate-700",
};

/** A box of the card's alerts of one kind, or nothing without any; `children` gets the link to them on the Alerts page. */
function AlertsBox({
  alerts,
  kind,
  children,
}: {
  alerts: AlertSummary[];
  kind: keyof typeof boxes;
  children: (href: string) => React.ReactNode;
}) {
  if (alerts.length === 0) return null;
  return (
    <section
      aria-label={kind === "open" ? "Open alerts" : "Acknowledged alerts"}
      data-testid={`health-${kind}-alerts`}
      className={`mt-3 rounded-md p-3 text-sm ring-1 ${boxes[kind]}`}
    >
      {children(`/alerts?connectionId=${alerts[0]!.connection.id}&state=open`)}
    </section>
  );
}

/**
 * A connection's open alerts that need someone, each with its numbers and what to do: the card's one call to act
 * (the alert conditions decide it, nothing else).
 */
export function OpenAlertItems({ alerts, isAdmin }: { alerts: AlertSummary[]; isAdmin: boolean }) {
  return (
    <AlertsBox alerts={alerts} kind="open">
      {(href) => (
        <>
          <p className="font-semibold">
            <Link className="underline-offset-2 hover:underline" href={href}>
              {alerts.length === 1 ? "1 open alert" : `${alerts.length} open alerts`}
            </Link>
          </p>
          <ul className="mt-1 space-y-2">
            {alerts.map((alert) => (
              <li key={alert.id} data-testid={`health-alert-${alert.kind}`}>
                <p>
                  <span className="font-medium">{ALERT_KIND_TEXT[alert.kind].label}</span>: {alert.summary}
                </p>
                <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
                  {alert.kind === "bad_signatures" ? (
                    isAdmin ? (
                      <Link className={action} href={serverKeyHref(alert.connection.id)}>
                        Paste the new server key
                      </Link>
                    ) : (
                      <span>Ask an administrator to paste the new server key.</span>
                    )
                  ) : null}
                  <Link className={action} href={alert.href}>
                    {alert.kind === "destination_failing" ? "See the destinations" : "See the events"}
                  </Link>
                </p>
              </li>
            ))}
          </ul>
        </>
      )}
    </AlertsBox>
  );
}

/** The alerts someone acknowledged: shown as such, in a neutral tone, apart from those that need someone. */
export function AcknowledgedAlertItems({ alerts }: { alerts: AlertSummary[] }) {
  return (
    <AlertsBox alerts={alerts} kind="acknowledged">
      {(href) => (
        <p>
          <Link className={neutralLink} href={href}>
            {alerts.length === 1 ? "1 acknowledged alert" : `${alerts.length} acknowledged alerts`}
          </Link>
          :{" "}
          {alerts.map((alert, i) => (
            <span key={alert.id}>
              {i > 0 ? " · " : ""}
              {ALERT_KIND_TEXT[alert.kind].label} ({alert.acknowledgedBy ?? "a removed user"},{" "}
              <Time iso={alert.acknowledgedAt} />)
            </span>
          ))}
        </p>
      )}
    </AlertsBox>
  );
}

/** The 24 h facts that bear on trust, in neutral words ("1 refused for a bad signature, 13 h ago"), each linked. */
export function HealthFacts({ facts, health }: { facts: HealthFact[]; health: ConnectionHealth }) {
  if (facts.length === 0) return null;
  return (
    <ul data-testid="health-facts" className="mt-2 space-y-1 text-sm text-slate-700 dark:text-slate-300">
      {facts.map((fact) => (
        <li key={fact.kind} data-testid={`health-fact-${fact.kind}`}>
          {fact.kind === "bad_signature" ? (
            <Link className={neutralLink} href={connectionRejectionsHref(health.id, "bad_signature")}>
              {formatCount(fact.count)} refused for a bad signature
            </Link>
          ) : (
            <>
              {formatCount(fact.count)} {fact.count === 1 ? "event" : "events"} stored unverified (no signature)
            </>
          )}
          {fact.lastAt ? (
            <>
              , {fact.count === 1 ? "" : "the last "}
              <Time iso={fact.lastAt} />
            </>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
