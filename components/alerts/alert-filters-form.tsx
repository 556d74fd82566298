import { FilterButtons } from "@/components/ui/button";
import { Field, Select } from "@/components/ui/input";
import { ALERT_KIND_TEXT, ALERT_KINDS } from "@/lib/alerts/constants";
import { alertFiltersSchema, ALL, type AlertFilters } from "@/lib/alerts/schemas";

import { alertFiltersLayout } from "./loading-shapes";

/** A link without parameters: every connection and condition, open and resolved, the first page. */
const DEFAULTS: AlertFilters = alertFiltersSchema.parse({});

/** The labels of the filters, for the form and for a link's parameter that was left out. */
const LABELS = {
  connectionId: "Connection",
  kind: "Condition",
  state: "State",
  muted: "Muted",
  limit: "Alerts shown",
} as Record<string, string> & Record<"connectionId" | "kind" | "state", string>;
/** A link's left-out parameters by this form's labels. */
export function describeIgnoredAlertFilters<T extends { name: string; label: string; message: string }>(
  ignored: T[],
): T[] {
  return ignored.map((f) => ({ ...f, label: LABELS[f.name] ?? f.label }));
}

/**
 * The Alerts page's filters as a plain GET form: a filtered view is a link to share, and works without JavaScript.
 * The connection is the header's switcher; one a link named (`linked`) stays.
 */
export function AlertFiltersForm({ filters, linked }: { filters: AlertFilters; linked: boolean }) {
  return (
    <form method="get" action="/alerts" role="search" className={alertFiltersLayout} aria-label="Filter the alerts">
      {linked ? <input type="hidden" name="connectionId" value={filters.connectionId} /> : null}
      <Field id="alert-kind" label={LABELS.kind}>
        <Select id="alert-kind" name="kind" defaultValue={filters.kind}>
          <option value={ALL}>All conditions</option>
          {ALERT_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {ALERT_KIND_TEXT[kind].label}
            </option>
          ))}
        </Select>
      </Field>
      <Field id="alert-state" label={LABELS.state}>
        <Select id="alert-state" name="state" defaultValue={filters.state}>
          <option value={ALL}>Open and resolved</option>
          <option value="open">Open</option>
          <option value="resolved">Resolved</option>
        </Select>
      </Field>
      {filters.limit !== DEFAULTS.limit ? <input type="hidden" name="limit" value={filters.limit} /> : null}
      <FilterButtons clearHref="/alerts" />
    </form>
  );
}

/** The filters as a query (defaults left out): the list's key, and the links that keep them. */
export function alertFiltersQuery(filters: AlertFilters): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters))
    if (value !== DEFAULTS[name as keyof AlertFilters]) params.set(name, String(value));
  return params.toString();
}
