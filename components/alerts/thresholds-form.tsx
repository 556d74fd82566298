"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";

import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Field, fieldControlProps, Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { setThresholdsAction } from "@/lib/alerts/actions";
import { THRESHOLD_NAMES, THRESHOLDS, type ThresholdName } from "@/lib/alerts/constants";
import type { ConnectionThresholds } from "@/lib/alerts/types";
import { callAction } from "@/lib/call-action";
import { lazyZodResolver } from "@/lib/lazy-resolver";

type FormValues = Record<ThresholdName, string>;

const isThreshold = (field: string | undefined): field is ThresholdName =>
  THRESHOLD_NAMES.includes(field as ThresholdName);

/** The hint under a threshold: its range, and what an empty field means. */
const thresholdHint = (name: ThresholdName, defaultValue: number) =>
  `A whole number from ${THRESHOLDS[name].min} to ${THRESHOLDS[name].max}; empty: the default, ${defaultValue}.`;

/**
 * An admin's form for one connection's thresholds: each field empty for the default (its placeholder), a
 * value out of range named on its field, checked in the browser with the server's own schema and again
 * by the server, which saves nothing unless every value is right.
 */
export function ThresholdsForm({
  connection,
  thresholds,
  defaults,
}: {
  connection: { id: string; name: string };
  thresholds: ConnectionThresholds;
  defaults: Record<ThresholdName, number>;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<FormValues>({
    resolver: lazyZodResolver(() =>
      import("@/lib/alerts/schemas").then((m) => m.thresholdsSchema.omit({ connectionId: true })),
    ),
    defaultValues: Object.fromEntries(
      THRESHOLD_NAMES.map((name) => [name, thresholds.set[name]?.toString() ?? ""]),
    ) as FormValues,
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const result = await callAction(() => setThresholdsAction({ ...values, connectionId: connection.id }));
    if (!result.ok) {
      const field = "field" in result ? result.field : undefined;
      if (isThreshold(field)) setError(field, { message: result.error }, { shouldFocus: true });
      else setFailure(result.error);
      return;
    }
    toast.success(`Saved the thresholds of ${connection.name}: the next check uses them.`);
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={`Thresholds of ${connection.name}`} className="space-y-4">
      {failure ? <Alert tone="danger">{failure}</Alert> : null}
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {THRESHOLD_NAMES.map((name) => {
          const id = `threshold-${name}`;
          const error = errors[name]?.message;
          const control = fieldControlProps(id, error, true);
          return (
            <Field
              key={name}
              id={id}
              label={THRESHOLDS[name].label}
              error={error}
              hint={thresholdHint(name, defaults[name])}
            >
              {/* The unit beside the number, and read with it. */}
              <div className="flex items-center gap-2">
                <Input
                  {...control}
                  aria-describedby={`${id}-unit ${control["aria-describedby"]}`}
                  type="number"
                  inputMode="numeric"
                  step={1}
                  min={THRESHOLDS[name].min}
                  max={THRESHOLDS[name].max}
                  placeholder={`${defaults[name]} (default)`}
                  className="w-32! shrink-0"
                  {...register(name)}
                />
                <span id={`${id}-unit`} className="text-sm text-slate-700 dark:text-slate-300">
                  {THRESHOLDS[name].unit}
                </span>
              </div>
            </Field>
          );
        })}
      </div>
      <Button type="submit" untilHydrated disabled={isSubmitting} aria-busy={isSubmitting}>
        {isSubmitting ? "Saving…" : "Save thresholds"}
      </Button>
    </form>
  );
}
