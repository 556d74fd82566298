"use client";

import { Select } from "@/components/ui/input";
import {
  ALL_TYPES,
  countActiveFilters,
  DELAY_BUCKETS,
  FILTER_LABELS,
  KNOWN_EVENT_TYPES,
  TEST_EVENT_FILTER_VALUES,
  TEST_EVENT_FILTERS,
} from "@/lib/webhooks/constants";
import type { EventFilters } from "@/lib/webhooks/schemas";
import type { FilterChoices } from "@/lib/webhooks/types";

import { BarField, BarInput, BarPanel, BarSelect, ChoiceSelect, FilterBar } from "./filter-bar";
import { ReceivedFilter, UtcInput } from "./received-filter";

const folded = ["userAuthenticatorId", "expiresFrom", "expiresTo"] as const satisfies ReadonlyArray<keyof EventFilters>;

/**
 * The events log's filter bar; applying puts the filters in the URL, so a filtered view is a shareable link. A
 * connection the link named (`linked`) stays in it; otherwise the header's switcher says whose events these are.
 */
export function EventFiltersForm({
  filters,
  linked,
  choices,
}: {
  filters: EventFilters;
  linked: boolean;
  choices: FilterChoices;
}) {
  return (
    <FilterBar
      label="Filter webhook events"
      basePath="/webhooks"
      active={countActiveFilters(filters)}
      keep={linked && filters.connectionId ? { connectionId: filters.connectionId } : undefined}
      more={
        // Rarely used filters fold away; they stay open while one of them is set, so a shared link shows what it
        // filters by.
        <BarPanel label="More" open={folded.some((name) => filters[name] !== undefined)}>
          <BarField id="f-userAuthenticatorId" label={FILTER_LABELS.userAuthenticatorId!}>
            <BarInput name="userAuthenticatorId" value={filters.userAuthenticatorId} className="sm:w-64!" />
          </BarField>
          <UtcInput name="expiresFrom" label="Expired from (UTC)" value={filters.expiresFrom} />
          <UtcInput name="expiresTo" label="Expired to (UTC)" value={filters.expiresTo} />
        </BarPanel>
      }
    >
      <BarSelect label={FILTER_LABELS.type!} name="type" defaultValue={filters.type}>
        {[...new Set<string>([...KNOWN_EVENT_TYPES, filters.type])]
          .filter((t) => t !== ALL_TYPES)
          .map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        <option value={ALL_TYPES}>All types</option>
      </BarSelect>
      <BarField id="f-userId" label={FILTER_LABELS.userId!}>
        <span className="flex">
          <BarInput
            name="userId"
            value={filters.userId}
            type="search"
            className="rounded-r-none! max-sm:grow sm:w-40!"
          />
          <Select
            aria-label="User id match"
            name="userIdMatch"
            defaultValue={filters.userIdMatch}
            className="-ml-px w-auto! rounded-l-none! py-1.5!"
          >
            <option value="exact">exact</option>
            <option value="prefix">starts with</option>
          </Select>
        </span>
      </BarField>
      <ChoiceSelect
        label={FILTER_LABELS.verificationMethod!}
        name="verificationMethod"
        anyLabel="All methods"
        values={choices.verificationMethods}
        value={filters.verificationMethod}
      />
      <ChoiceSelect
        label={FILTER_LABELS.devicePlatform!}
        name="devicePlatform"
        anyLabel="All platforms"
        values={choices.devicePlatforms}
        value={filters.devicePlatform}
      />
      <ReceivedFilter received={filters.received} from={filters.receivedFrom} to={filters.receivedTo} />
      <BarSelect label={FILTER_LABELS.delay!} name="delay" defaultValue={filters.delay ?? ""}>
        <option value="">Any delay</option>
        {DELAY_BUCKETS.map((b) => (
          <option key={b.key} value={b.key}>
            {b.label}
          </option>
        ))}
      </BarSelect>
      <BarSelect label={FILTER_LABELS.test!} name="test" defaultValue={filters.test ?? ""}>
        <option value="">Real and test</option>
        {TEST_EVENT_FILTER_VALUES.map((v) => (
          <option key={v} value={v}>
            {TEST_EVENT_FILTERS[v]}
          </option>
        ))}
      </BarSelect>
    </FilterBar>
  );
}
