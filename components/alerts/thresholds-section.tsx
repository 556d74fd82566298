import { ConnectionOptions } from "@/components/connections/connection-options";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, Select } from "@/components/ui/input";
import { THRESHOLD_NAMES, THRESHOLDS, type ThresholdName } from "@/lib/alerts/constants";
import type { AlertFilters } from "@/lib/alerts/schemas";
import type { ConnectionThresholds } from "@/lib/alerts/types";

import { ThresholdsForm } from "./thresholds-form";

const muted = "text-sm text-slate-600 dark:text-slate-400";

/**
 * When each condition opens an alert, per connection: the connection the filters name (or the one
 * chosen here). Admins get the form (`isAdmin`); support reads the values in force.
 */
export function ThresholdsSection({
  filters,
  connections,
  selected,
  defaults,
  isAdmin,
}: {
  filters: AlertFilters;
  connections: Array<{ id: string; name: string }>;
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
          {selected ? " Choose another connection with the filters above." : null}
        </p>
      </div>
      <Card>
        {!selected ? (
          <ChooseConnection filters={filters} connections={connections} />
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

/** Without a connection in the filters: pick one, keeping the other filters. */
function ChooseConnection({
  filters,
  connections,
}: {
  filters: AlertFilters;
  connections: Array<{ id: string; name: string }>;
}) {
  if (connections.length === 0) return <p className={muted}>No connection yet: thresholds are set per connection.</p>;
  return (
    <form
      method="get"
      action="/alerts"
      aria-label="Choose a connection's thresholds"
      className="flex flex-wrap items-end gap-3"
    >
      {filters.kind !== "all" ? <input type="hidden" name="kind" value={filters.kind} /> : null}
      {filters.state !== "all" ? <input type="hidden" name="state" value={filters.state} /> : null}
      <div className="w-64 max-w-full">
        <Field id="thresholds-connection" label="Connection">
          <Select id="thresholds-connection" name="connectionId" defaultValue={connections[0]!.id}>
            <ConnectionOptions connections={connections} />
          </Select>
        </Field>
      </div>
      <Button type="submit" variant="secondary">
        Show thresholds
      </Button>
    </form>
  );
}
