"use client";

import { FILTER_LABELS } from "@/lib/webhooks/constants";
import type { RejectionFilters } from "@/lib/webhooks/schemas";
import { REJECTION_REASON_TEXT, REJECTION_REASON_VALUES } from "@/lib/webhooks/types";

import { BarSelect, ConnectionSelect, FilterBar, ReceivedFilter } from "./filter-bar";

/** The rejections log's filter bar: connection, the reason in words, and when. */
export function RejectionFiltersForm({
  filters,
  connections,
}: {
  filters: RejectionFilters;
  connections: Array<{ id: string; name: string }>;
}) {
  return (
    <FilterBar label="Filter rejected requests" basePath="/webhooks?tab=rejections">
      <ConnectionSelect connections={connections} value={filters.connectionId} />
      <BarSelect label={FILTER_LABELS.reason!} name="reason" defaultValue={filters.reason ?? ""}>
        <option value="">All reasons</option>
        {REJECTION_REASON_VALUES.map((r) => (
          <option key={r} value={r}>
            {REJECTION_REASON_TEXT[r].label}
          </option>
        ))}
      </BarSelect>
      <ReceivedFilter received={filters.received} from={filters.receivedFrom} to={filters.receivedTo} />
    </FilterBar>
  );
}
