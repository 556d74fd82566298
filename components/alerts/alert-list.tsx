import { EmptyState } from "@/components/ui/card";
import { Link } from "@/components/ui/link";
import { Time } from "@/components/ui/time";
import { ALERT_KIND_TEXT, ALERT_KINDS } from "@/lib/alerts/constants";
import type { AlertPage } from "@/lib/alerts/types";

import { AlertCard } from "./alert-card";

const note = "mb-3 text-sm text-slate-600 dark:text-slate-400";

/**
 * The alerts the filters select, open ones first, with when the evaluator last looked; streams in when
 * the query answers. Admins get the buttons (`isAdmin`): support reads the same list without them.
 */
export async function AlertList({
  page: pending,
  filtered,
  evaluateSeconds,
  moreHref,
  isAdmin,
}: {
  page: Promise<AlertPage>;
  /** Whether the link filters the list: the empty state then says so. */
  filtered: boolean;
  evaluateSeconds: number;
  /** The same filters with the most alerts a page shows, when the list is cut short. */
  moreHref: string | null;
  isAdmin: boolean;
}) {
  const { alerts, total, lastEvaluatedAt } = await pending;
  return (
    <>
      <p className={note} data-testid="alerts-last-evaluated">
        {lastEvaluatedAt ? (
          <>
            Last evaluated <Time iso={lastEvaluatedAt} />; the console checks every {evaluateSeconds} s.
          </>
        ) : (
          <>Not evaluated yet: the first check runs within {evaluateSeconds} s of the console starting.</>
        )}
      </p>
      {alerts.length === 0 ? (
        <EmptyState title={filtered ? "No alerts match these filters" : "No alerts: nothing is wrong"}>
          <p>
            The console checks every connection for:{" "}
            {ALERT_KINDS.map((kind) => ALERT_KIND_TEXT[kind].label.toLowerCase()).join(", ")}. When one crosses its
            threshold, an alert opens here and a banner shows on every page until it resolves.
          </p>
          {filtered ? <p className="mt-2">Change or clear the filters to see the others.</p> : null}
        </EmptyState>
      ) : (
        <ul aria-label="Alerts, open first" className="space-y-3">
          {alerts.map((alert) => (
            <li key={alert.id} data-testid="alert" data-kind={alert.kind} data-connection={alert.connection.name}>
              <AlertCard alert={alert} isAdmin={isAdmin} />
            </li>
          ))}
        </ul>
      )}
      {total > alerts.length ? (
        <p className={`${note} mt-3`}>
          Showing {alerts.length} of {total}.{" "}
          {moreHref ? (
            <Link
              href={moreHref}
              className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
            >
              Show more
            </Link>
          ) : (
            "Narrow the filters to see the others."
          )}
        </p>
      ) : null}
    </>
  );
}
