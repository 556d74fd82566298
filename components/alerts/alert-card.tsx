import { Card } from "@/components/ui/card";
import { Link } from "@/components/ui/link";
import { Time } from "@/components/ui/time";
import { ALERT_KIND_TEXT } from "@/lib/alerts/constants";
import { serverKeyHref } from "@/lib/alerts/display";
import type { AlertSummary } from "@/lib/alerts/types";

import { AlertButtons, AlertStateBadge } from "./alert-state";
import { noticesText } from "./alert-words";

const link = "font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300";
const muted = "text-slate-600 dark:text-slate-400";

/**
 * One alert: the condition and its connection, its state, the line with its numbers, its times, who
 * acknowledged it, how its notices fared, where its events are, and (admins) what can be done about it.
 */
export function AlertCard({ alert, isAdmin }: { alert: AlertSummary; isAdmin: boolean }) {
  const text = ALERT_KIND_TEXT[alert.kind];
  const name = `${text.label} on ${alert.connection.name}`;
  const notices = noticesText(alert.notices);
  const open = alert.state === "open";
  return (
    <Card className="space-y-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="min-w-0 font-semibold text-slate-900 [overflow-wrap:anywhere] dark:text-slate-100">
          {text.label} <span className={`font-normal ${muted}`}>on</span> {alert.connection.name}
        </h3>
        <AlertStateBadge alert={alert} />
      </div>
      <p className="text-sm text-slate-800 dark:text-slate-200">{alert.summary}</p>
      <details className="text-sm">
        <summary className={`cursor-pointer ${muted}`}>What this usually means</summary>
        <p className={`mt-1 ${muted}`}>{text.meaning}</p>
      </details>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3 lg:grid-cols-5">
        <Fact term="Opened">
          <Time iso={alert.openedAt} />
        </Fact>
        <Fact term="Last seen">
          <Time iso={alert.lastSeenAt} />
        </Fact>
        {open && alert.clearSince ? (
          <Fact term="Clear since">
            <Time iso={alert.clearSince} />
          </Fact>
        ) : (
          <Fact term="Resolved">{alert.resolvedAt ? <Time iso={alert.resolvedAt} /> : "not yet"}</Fact>
        )}
        <Fact term="Acknowledged">
          {alert.acknowledgedAt ? (
            <>
              {alert.acknowledgedBy ?? "a removed user"}, <Time iso={alert.acknowledgedAt} />
            </>
          ) : (
            "no"
          )}
        </Fact>
        <Fact term="Notices">
          {notices.text}
          {notices.problem ? (
            <span className="block text-amber-800 [overflow-wrap:anywhere] dark:text-amber-300">{notices.problem}</span>
          ) : null}
        </Fact>
      </dl>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <Link className={link} href={alert.href}>
            View events
          </Link>
          {open && alert.kind === "bad_signatures" ? (
            isAdmin ? (
              <Link className={link} href={serverKeyHref(alert.connection.id)}>
                Enter the new server key
              </Link>
            ) : (
              <span className={muted}>Ask an administrator to enter the new server key.</span>
            )
          ) : null}
        </p>
        {isAdmin ? <AlertButtons alert={alert} name={name} /> : null}
      </div>
    </Card>
  );
}

function Fact({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-500 dark:text-slate-400">{term}</dt>
      <dd className="text-slate-900 dark:text-slate-100">{children}</dd>
    </div>
  );
}
