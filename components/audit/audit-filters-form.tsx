import { FilterButtons } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/input";
import { auditActions, type AuditFilter } from "@/lib/audit/schemas";

const formLayout =
  "mb-6 grid gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 lg:grid-cols-5 lg:items-end dark:bg-slate-900 dark:ring-slate-800";

/**
 * The audit log's filters as a plain GET form, so a filtered view is a link to share. The times are
 * shown as typed (`typedTimes`): the parsed filter holds them as UTC instants, which the
 * datetime-local inputs cannot show. The connection is the header's switcher; one a link named (`linked`) stays.
 */
export function AuditFiltersForm({
  filter,
  typedTimes,
  linked,
}: {
  filter: AuditFilter;
  typedTimes: { from?: string; to?: string };
  linked: boolean;
}) {
  return (
    <form method="get" action="/audit" className={formLayout} aria-label="Filter the audit log">
      {linked && filter.connectionId ? <input type="hidden" name="connectionId" value={filter.connectionId} /> : null}
      <Field id="actor" label="Actor email contains">
        <Input id="actor" name="actor" defaultValue={filter.actor ?? ""} />
      </Field>
      <Field id="action" label="Action">
        <Select id="action" name="action" defaultValue={filter.action ?? ""}>
          <option value="">Any</option>
          {auditActions.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </Select>
      </Field>
      <Field id="from" label="From (UTC)">
        <Input id="from" name="from" type="datetime-local" defaultValue={typedTimes.from ?? ""} />
      </Field>
      <Field id="to" label="To (UTC)">
        <Input id="to" name="to" type="datetime-local" defaultValue={typedTimes.to ?? ""} />
      </Field>
      <FilterButtons clearHref="/audit" />
    </form>
  );
}

/** The form's frame while the page is read: its four fields and its buttons. */
export function AuditFiltersFormSkeleton() {
  return (
    <div className={formLayout}>
      {Array.from({ length: 5 }, (_, i) => (
        <Skeleton key={i} className="h-16" />
      ))}
    </div>
  );
}
