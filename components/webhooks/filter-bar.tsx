"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

import { ConnectionOptions } from "@/components/connections/connection-options";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Input, Select } from "@/components/ui/input";
import {
  ALL_CONNECTIONS,
  FILTER_LABELS,
  filtersToQuery,
  RECEIVED_PRESET_VALUES,
  RECEIVED_PRESETS,
} from "@/lib/webhooks/constants";

/**
 * The logs' filters in one compact bar that wraps: selects apply as soon as they change (a shared link
 * is then one choice away), text fields on Enter or Apply. Labels are visually hidden; each select's
 * first option says what it filters ("All methods"), as in Hookdeck's and Svix's logs.
 */
export const barLayout =
  "mb-3 flex flex-wrap items-center gap-2 rounded-lg bg-white dark:bg-slate-900 p-2 shadow-sm ring-1 ring-slate-200 dark:ring-slate-700";

export function FilterBar({
  label,
  basePath,
  children,
  more,
}: {
  label: string;
  /** Kept before the filters (the rejections tab's `tab=rejections`). */
  basePath: string;
  children: React.ReactNode;
  more?: React.ReactNode;
}) {
  const router = useRouter();
  const go = (form: HTMLFormElement) => {
    const values: Record<string, string> = {};
    const data = new FormData(form);
    const custom = data.get("received") === CUSTOM;
    for (const [key, value] of data.entries()) {
      if (typeof value !== "string" || !value) continue;
      if (key === "received" && custom) continue;
      if ((key === "receivedFrom" || key === "receivedTo") && !custom) continue;
      // datetime-local has no zone; the bar says its fields are UTC, so the server reads what the reader meant.
      values[key] = key.endsWith("From") || key.endsWith("To") ? fromUtcInput(value) : value;
    }
    const query = [basePath.split("?")[1], filtersToQuery(values)].filter(Boolean).join("&");
    router.push(query ? `/webhooks?${query}` : "/webhooks");
  };
  return (
    <form
      role="search"
      aria-label={label}
      className={barLayout}
      onSubmit={(event) => {
        event.preventDefault();
        go(event.currentTarget);
      }}
      onChange={(event) => {
        const target = event.target as HTMLElement;
        if (target instanceof HTMLSelectElement && target.dataset.apply === "now" && target.value !== CUSTOM)
          event.currentTarget.requestSubmit();
      }}
    >
      {children}
      {more}
      <div className="flex gap-1">
        <Button type="submit" size="sm">
          Apply
        </Button>
        <Button variant="ghost" size="sm" onClick={() => router.push(basePath)}>
          Clear
        </Button>
      </div>
    </form>
  );
}

/** A select that applies at once. */
export function BarSelect({
  label,
  name,
  defaultValue,
  className,
  children,
}: {
  label: string;
  name: string;
  defaultValue: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <>
      <label htmlFor={`f-${name}`} className="sr-only">
        {label}
      </label>
      <Select
        id={`f-${name}`}
        name={name}
        defaultValue={defaultValue}
        data-apply="now"
        className={cn("w-auto! py-1.5! max-sm:grow", className)}
      >
        {children}
      </Select>
    </>
  );
}

/** A text filter: its label is its placeholder (and, for screen readers, a hidden label). */
export function BarInput({
  name,
  label,
  value,
  type,
  className,
}: {
  name: string;
  label: string;
  value: string | undefined;
  type?: "search";
  className?: string;
}) {
  return (
    <>
      <label htmlFor={`f-${name}`} className="sr-only">
        {label}
      </label>
      <Input
        id={`f-${name}`}
        name={name}
        type={type}
        placeholder={label}
        defaultValue={value ?? ""}
        autoComplete="off"
        className={cn("py-1.5!", className)}
      />
    </>
  );
}

/** The connection filter both logs share: all connections, or one by name. */
export function ConnectionSelect({
  connections,
  value,
}: {
  connections: Array<{ id: string; name: string }>;
  value: string | undefined;
}) {
  return (
    <BarSelect
      label={FILTER_LABELS.connectionId!}
      name="connectionId"
      defaultValue={value ?? ALL_CONNECTIONS}
      className="max-w-44"
    >
      <option value={ALL_CONNECTIONS}>All connections</option>
      <ConnectionOptions connections={connections} />
    </BarSelect>
  );
}

/**
 * A select of known values after an "any" option. A value in the link that is not among them (an older
 * method, say) is still offered, so the bar shows what the view filters by.
 */
export function ChoiceSelect({
  label,
  name,
  anyLabel,
  values,
  value,
}: {
  label: string;
  name: string;
  anyLabel: string;
  values: readonly string[];
  value: string | undefined;
}) {
  return (
    <BarSelect label={label} name={name} defaultValue={value ?? ""}>
      <option value="">{anyLabel}</option>
      {(value && !values.includes(value) ? [...values, value] : values).map((v) => (
        <option key={v} value={v}>
          {v}
        </option>
      ))}
    </BarSelect>
  );
}

const CUSTOM = "custom";

/** The received-time presets (relative, so a shared "last hour" stays the last hour) and a custom UTC range. */
export function ReceivedFilter({
  received,
  from,
  to,
}: {
  received: string | undefined;
  from: string | undefined;
  to: string | undefined;
}) {
  const initial = from || to ? CUSTOM : (received ?? "");
  const [choice, setChoice] = useState(initial);
  return (
    <>
      <label htmlFor="f-received" className="sr-only">
        Received
      </label>
      <Select
        id="f-received"
        name="received"
        value={choice}
        // A preset applies at once; Custom… first reveals its two fields (the bar skips it).
        data-apply="now"
        onChange={(e) => setChoice(e.target.value)}
        className="w-auto! py-1.5! max-sm:grow"
      >
        <option value="">Any time</option>
        {RECEIVED_PRESET_VALUES.map((p) => (
          <option key={p} value={p}>
            {RECEIVED_PRESETS[p].label}
          </option>
        ))}
        <option value={CUSTOM}>Custom…</option>
      </Select>
      {choice === CUSTOM ? (
        <span className="flex flex-wrap items-center gap-2">
          <UtcInput name="receivedFrom" label="From (UTC)" value={from} />
          <UtcInput name="receivedTo" label="To (UTC)" value={to} />
        </span>
      ) : null}
    </>
  );
}

/** A datetime field read as UTC, with the zone in its visible label. */
export function UtcInput({ name, label, value }: { name: string; label: string; value: string | undefined }) {
  return (
    <span className="flex items-center gap-1">
      <label htmlFor={`f-${name}`} className="text-xs font-medium whitespace-nowrap text-slate-700 dark:text-slate-300">
        {label}
      </label>
      <Input
        id={`f-${name}`}
        name={name}
        type="datetime-local"
        step="1"
        defaultValue={toUtcInput(value)}
        className="w-auto! py-1.5!"
      />
    </span>
  );
}

/** The bar's shape before the page's filters are known (loading.tsx). */
export function FilterBarSkeleton({ fields = 6 }: { fields?: number }) {
  return (
    <div className={barLayout} aria-hidden="true">
      {Array.from({ length: fields }, (_, i) => (
        <Skeleton key={i} className={cn("h-8", i === 4 ? "w-52" : "w-36")} />
      ))}
      <Skeleton className="h-8 w-28" />
    </div>
  );
}

/** "2026-11-23T11:06:17.000Z" → "2026-11-23T11:06:17", the UTC wall time datetime-local shows. */
function toUtcInput(iso: string | undefined): string {
  return iso ? new Date(iso).toISOString().slice(0, 19) : "";
}

function fromUtcInput(value: string): string {
  const date = new Date(`${value.length === 16 ? `${value}:00` : value}Z`);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}
