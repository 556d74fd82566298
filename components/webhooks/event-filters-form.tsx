"use client";

import { Select } from "@/components/ui/input";
import {
  ALL_TYPES,
  DELAY_BUCKETS,
  FILTER_LABELS,
  KNOWN_EVENT_TYPES,
  TEST_EVENT_FILTER_VALUES,
  TEST_EVENT_FILTERS,
} from "@/lib/webhooks/constants";
import type { EventFilters } from "@/lib/webhooks/schemas";
import type { FilterChoices } from "@/lib/webhooks/types";

import {
  BarInput,
  BarSelect,
  ChoiceSelect,
  ConnectionSelect,
  FilterBar,
  FilterBarSkeleton,
  ReceivedFilter,
  UtcInput,
} from "./filter-bar";

const folded = ["userAuthenticatorId", "expiresFrom", "expiresTo"] as const satisfies ReadonlyArray<keyof EventFilters>;

/** The events log's filter bar; applying puts the filters in the URL, so a filtered view is a shareable link. */
export function EventFiltersForm({
  filters,
  connections,
  choices,
}: {
  filters: EventFilters;
  connections: Array<{ id: string; name: string }>;
  choices: FilterChoices;
}) {
  return (
    <FilterBar
      label="Filter webhook events"
      basePath="/webhooks"
      more={
        // Rarely used filters fold away; they stay open while one of them is set, so a shared link shows what it
        // filters by.
        <details className="open:basis-full" open={folded.some((name) => filters[name] !== undefined)}>
          <summary className="cursor-pointer rounded-md px-2 py-1.5 text-sm font-medium text-indigo-700 dark:text-indigo-300 hover:bg-slate-50">
            More
          </summary>
          <div className="mt-2 flex w-full flex-wrap items-center gap-2">
            <BarInput
              name="userAuthenticatorId"
              label={FILTER_LABELS.userAuthenticatorId!}
              value={filters.userAuthenticatorId}
              className="w-52!"
            />
            <UtcInput name="expiresFrom" label="Expired from (UTC)" value={filters.expiresFrom} />
            <UtcInput name="expiresTo" label="Expired to (UTC)" value={filters.expiresTo} />
          </div>
        </details>
      }
    >
      <ConnectionSelect connections={connections} value={filters.connectionId} />
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
      <span className="flex max-sm:grow">
        <BarInput
          name="userId"
          label={FILTER_LABELS.userId!}
          value={filters.userId}
          type="search"
          className="w-44! rounded-r-none! max-sm:grow"
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
      <ReceivedFilter received={filters.received} from={filters.receivedFrom} to={filters.receivedTo} />
      <BarSelect label={FILTER_LABELS.delay!} name="delay" defaultValue={filters.delay ?? ""}>
        <option value="">Any delay</option>
        {DELAY_BUCKETS.map((b) => (
          <option key={b.key} value={b.key}>
            Delay {b.label}
          </option>
        ))}
      </BarSelect>
      <BarSelect label={FILTER_LABELS.test!} name="test" defaultValue={filters.test ?? ""}>
        <option value="">Real and test events</option>
        {TEST_EVENT_FILTER_VALUES.map((v) => (
          <option key={v} value={v}>
            {TEST_EVENT_FILTERS[v]}
          </option>
        ))}
      </BarSelect>
    </FilterBar>
  );
}

/** The bar's shape before its filters are known (loading.tsx). */
export function EventFiltersFormSkeleton() {
  return <FilterBarSkeleton fields={9} />;
}
