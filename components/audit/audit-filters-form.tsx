import { FilterButtons } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/input";
import { auditActionGroups, type AuditFilter } from "@/lib/audit/schemas";

import { auditFiltersLayout } from "./loading-shapes";

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
    <form method="get" action="/audit" className={auditFiltersLayout} aria-label="Filter the audit log">
      {linked && filter.connectionId ? <input type="hidden" name="connectionId" value={filter.connectionId} /> : null}
      <Field id="actor" label="Actor email contains">
        <Input id="actor" name="actor" defaultValue={filter.actor ?? ""} />
      </Field>
      <Field id="action" label="Action">
        <Select id="action" name="action" defaultValue={filter.action ?? ""}>
          <option value="">Any</option>
          {Object.entries(auditActionGroups).map(([group, actions]) => (
            <optgroup key={group} label={group}>
              {actions.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </optgroup>
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
