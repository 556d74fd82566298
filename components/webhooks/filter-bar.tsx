"use client";

import { SlidersHorizontal } from "lucide-react";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";

import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Input, Select } from "@/components/ui/input";
import { filtersToQuery } from "@/lib/webhooks/constants";

import { barLayout } from "./filter-bar-skeleton";

/**
 * The logs' filters in one compact bar of labelled fields: selects apply as soon as they change (a shared link is
 * then one choice away), text fields on Enter or Apply. Apply sits with the last fields, never alone on a row. On a
 * phone the bar folds behind one "Filters (n)" button. The connection is the header's switcher, not a filter here.
 */
/** The received filter's value for a custom range. */
export const CUSTOM = "custom";

export function FilterBar({
  label,
  basePath,
  active,
  keep,
  children,
  more,
}: {
  label: string;
  /** Kept before the filters (the rejections tab's `tab=rejections`). */
  basePath: string;
  /** How many filters the view applies. */
  active: number;
  /** Parameters the view keeps when its filters change (the connection a link named). */
  keep?: Record<string, string>;
  children: React.ReactNode;
  /** The last group, beside Apply. */
  more?: React.ReactNode;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const fieldsId = useId();
  const go = (form: HTMLFormElement) => {
    const values: Record<string, string> = {};
    const data = new FormData(form);
    const custom = data.get("received") === CUSTOM;
    for (const [key, value] of data.entries()) {
      if (typeof value !== "string" || !value) continue;
      if (key === "received" && custom) continue;
      if ((key === "receivedFrom" || key === "receivedTo") && !custom) continue;
      // datetime-local has no zone; the fields say they are UTC, so the server reads what the reader meant.
      values[key] = key.endsWith("From") || key.endsWith("To") ? fromUtcInput(value) : value;
    }
    const query = [basePath.split("?")[1], filtersToQuery(values)].filter(Boolean).join("&");
    router.push(query ? `/webhooks?${query}` : "/webhooks");
  };
  return (
    <form
      role="search"
      aria-label={label}
      className="mb-3"
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
      <Button
        variant="secondary"
        className="w-full justify-center sm:hidden"
        aria-expanded={open}
        aria-controls={fieldsId}
        onClick={() => setOpen(!open)}
      >
        <SlidersHorizontal aria-hidden="true" className="size-4" />
        Filters ({active})
      </Button>
      <div
        id={fieldsId}
        className={cn(barLayout, "max-sm:mt-2 max-sm:flex-col max-sm:items-stretch", !open && "max-sm:hidden")}
      >
        {Object.entries(keep ?? {}).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {children}
        <div className="flex items-end gap-2 max-sm:flex-wrap">
          {more}
          <Button type="submit" size="sm" className="max-sm:grow">
            Apply
          </Button>
          <Button variant="ghost" size="sm" onClick={() => router.push(basePath)}>
            Clear
          </Button>
        </div>
      </div>
    </form>
  );
}

/** A labelled field of the bar: its name above it. */
export function BarField({
  id,
  label,
  className,
  children,
}: {
  id: string;
  label: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <div className={cn("flex min-w-0 flex-col gap-1", className)}>
      <label htmlFor={id} className="text-xs font-medium text-slate-700 dark:text-slate-300">
        {label}
      </label>
      {children}
    </div>
  );
}

export const fieldClass = "py-1.5! sm:w-auto!";

/** A labelled select that applies at once. */
export function BarSelect({
  label,
  name,
  defaultValue,
  children,
}: {
  label: string;
  name: string;
  defaultValue: string;
  children: React.ReactNode;
}) {
  return (
    <BarField id={`f-${name}`} label={label}>
      <Select id={`f-${name}`} name={name} defaultValue={defaultValue} data-apply="now" className={fieldClass}>
        {children}
      </Select>
    </BarField>
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

/** A text filter's field (its label is the BarField around it). */
export function BarInput({
  name,
  value,
  type,
  className,
}: {
  name: string;
  value: string | undefined;
  type?: "search";
  className?: string;
}) {
  return (
    <Input
      id={`f-${name}`}
      name={name}
      type={type}
      defaultValue={value ?? ""}
      autoComplete="off"
      className={cn("py-1.5!", className)}
    />
  );
}

/** A panel that opens over the log from a small button (the rarely used filters), open while one of them is set. */
export function BarPanel({ label, open, children }: { label: string; open: boolean; children: React.ReactNode }) {
  return (
    <details className="relative" open={open}>
      <summary className="cursor-pointer rounded-md px-2 py-1.5 text-sm font-medium whitespace-nowrap text-indigo-700 hover:bg-slate-50 dark:text-indigo-300 dark:hover:bg-slate-800">
        {label}
      </summary>
      <div className={panelClass}>{children}</div>
    </details>
  );
}

/** A panel over the log below its control (on a phone, in the folded bar's flow). */
export const panelClass =
  "z-20 mt-1 flex flex-col gap-2 rounded-lg bg-white p-3 shadow-lg ring-1 ring-slate-200 sm:absolute sm:right-0 sm:top-full sm:w-max dark:bg-slate-900 dark:ring-slate-700";

/** "2026-11-23T11:06:17.000Z" → "2026-11-23T11:06:17", the UTC wall time datetime-local shows. */
export function toUtcInput(iso: string | undefined): string {
  return iso ? new Date(iso).toISOString().slice(0, 19) : "";
}

export function fromUtcInput(value: string): string {
  const date = new Date(`${value.length === 16 ? `${value}:00` : value}Z`);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}
