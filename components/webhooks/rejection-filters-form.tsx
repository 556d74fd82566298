"use client";

import { countActiveFilters, FILTER_LABELS } from "@/lib/webhooks/constants";
import type { RejectionFilters } from "@/lib/webhooks/schemas";
import { REJECTION_REASON_TEXT, REJECTION_REASON_VALUES } from "@/lib/webhooks/types";

import { BarSelect, FilterBar } from "./filter-bar";
import { ReceivedFilter } from "./received-filter";

/** The rejections log's filter bar (the events log's, with its own fields): the reason in words, and when. */
export function RejectionFiltersForm({ filters, linked }: { filters: RejectionFilters; linked: boolean }) {
  return (
    <FilterBar
      label="Filter rejected requests"
      basePath="/webhooks?tab=rejections"
      active={countActiveFilters(filters)}
      keep={linked && filters.connectionId ? { connectionId: filters.connectionId } : undefined}
    >
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
