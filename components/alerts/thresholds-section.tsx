import { Card } from "@/components/ui/card";
import { THRESHOLD_NAMES, THRESHOLDS, type ThresholdName } from "@/lib/alerts/constants";
import type { ConnectionThresholds } from "@/lib/alerts/types";

import { ThresholdsForm } from "./thresholds-form";

const muted = "text-sm text-slate-600 dark:text-slate-400";

/**
 * When each condition opens an alert, per connection: the connection in the page's scope (the header's switcher,
 * or the link's); none while it shows all. Admins get the form (`isAdmin`); support reads the values in force.
 */
export function ThresholdsSection({
  selected,
  defaults,
  isAdmin,
}: {
  selected: { connection: { id: string; name: string }; thresholds: ConnectionThresholds } | null;
  defaults: Record<ThresholdName, number>;
  isAdmin: boolean;
}) {
  return (
    <section aria-labelledby="thresholds-heading" className="mt-10 space-y-3">
      <div>
        <h2 id="thresholds-heading" className="text-lg font-semibold text-slate-900 dark:text-slate-100">
          Thresholds{selected ? ` of ${selected.connection.name}` : ""}
        </h2>
        <p className={muted}>
          When each condition opens an alert on a connection; an empty field takes the default.
          {selected ? " Choose another connection in the header." : null}
        </p>
      </div>
      <Card>
        {!selected ? (
          <p className={muted}>
            Thresholds are set per connection: choose one in the header&apos;s Connection menu to see its thresholds
            {isAdmin ? " and change them" : ""}.
          </p>
        ) : isAdmin ? (
          <ThresholdsForm
            key={`${selected.connection.id}:${JSON.stringify(selected.thresholds.set)}`}
            connection={selected.connection}
            thresholds={selected.thresholds}
            defaults={defaults}
          />
        ) : (
          <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 xl:grid-cols-3">
            {THRESHOLD_NAMES.map((name) => (
              <div key={name}>
                <dt className="font-medium text-slate-800 dark:text-slate-200">{THRESHOLDS[name].label}</dt>
                <dd className="text-slate-900 dark:text-slate-100">
                  {selected.thresholds.values[name]} {THRESHOLDS[name].unit}
                  {selected.thresholds.set[name] === null ? (
                    <span className="text-slate-500 dark:text-slate-400"> (default)</span>
                  ) : null}
                </dd>
              </div>
            ))}
          </dl>
        )}
      </Card>
    </section>
  );
}
