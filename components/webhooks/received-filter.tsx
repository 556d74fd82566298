"use client";

import { Pencil } from "lucide-react";
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Input, Select } from "@/components/ui/input";
import { formatUtc } from "@/lib/time-format";
import { RECEIVED_PRESET_VALUES, RECEIVED_PRESETS } from "@/lib/webhooks/constants";

import { BarField, CUSTOM, fieldClass, panelClass, toUtcInput } from "./filter-bar";

/**
 * The received-time range, one control: presets (relative, so a shared "last hour" stays the last hour) that apply at
 * once, or a custom UTC range edited in a panel below it.
 */
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
  const [editing, setEditing] = useState(false);
  const range =
    from || to ? `${from ? formatUtc(from).slice(0, 16) : "…"} – ${to ? formatUtc(to).slice(0, 16) : "…"}` : null;
  return (
    <BarField id="f-received" label="Received" className="relative">
      <span className="flex items-center gap-1">
        <Select
          id="f-received"
          name="received"
          value={choice}
          // A preset applies at once; Custom… opens the range's panel (the bar skips it).
          data-apply="now"
          onChange={(e) => {
            setChoice(e.target.value);
            setEditing(e.target.value === CUSTOM);
          }}
          className={cn(fieldClass, "max-sm:grow")}
        >
          <option value="">Any time</option>
          {RECEIVED_PRESET_VALUES.map((p) => (
            <option key={p} value={p}>
              {RECEIVED_PRESETS[p].label}
            </option>
          ))}
          <option value={CUSTOM}>{range ? `${range} UTC` : "Custom…"}</option>
        </Select>
        {choice === CUSTOM && !editing ? (
          <Button
            variant="ghost"
            size="sm"
            aria-label="Change the range"
            title="Change the range"
            onClick={() => setEditing(true)}
          >
            <Pencil aria-hidden="true" className="size-4" />
          </Button>
        ) : null}
      </span>
      {/* Kept mounted while Custom is chosen, so the range's values go with the form even while the panel is shut. */}
      {choice === CUSTOM ? (
        <div
          role="group"
          aria-label="Custom range"
          className={cn(panelClass, "sm:left-0 sm:right-auto", !editing && "hidden!")}
        >
          <UtcInput name="receivedFrom" label="From (UTC)" value={from} />
          <UtcInput name="receivedTo" label="To (UTC)" value={to} />
          <Button type="submit" size="sm">
            Apply range
          </Button>
        </div>
      ) : null}
    </BarField>
  );
}

/** A datetime field read as UTC, with the zone in its visible label. */
export function UtcInput({ name, label, value }: { name: string; label: string; value: string | undefined }) {
  return (
    <span className="flex items-center justify-between gap-2">
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
