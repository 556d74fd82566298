"use client";

import type { useForm, UseFormRegisterReturn } from "react-hook-form";

import { Field, fieldControlProps, Input } from "@/components/ui/input";
import { NameAndUrlFields } from "@/components/ui/name-url-fields";
import {
  DESTINATION_URL_HINT,
  MAX_PER_SECOND_LIMIT,
  SERVICE_SIGNING_NEEDS_SERVER_KEY,
  SIGNING_MODE_VALUES,
  SIGNING_MODES,
} from "@/lib/destinations/constants";
import type { CreateDestinationInput } from "@/lib/destinations/schemas";
import { KNOWN_EVENT_TYPES, KNOWN_METHODS } from "@/lib/webhooks/constants";

export type DestinationFormValues = Omit<CreateDestinationInput, "connectionId">;
type FormValues = DestinationFormValues;

/**
 * The fields of "Add a destination" (add-destination.tsx), loaded when its dialog is first wanted: the
 * name and URL, how its forwards are signed, its rate cap, and which events it takes (ChoiceGroup, the edit's too).
 */
export function DestinationFields({
  form,
  hasServerKey,
}: {
  form: ReturnType<typeof useForm<FormValues>>;
  hasServerKey: boolean;
}) {
  const {
    register,
    watch,
    formState: { errors },
  } = form;
  const rateError = errors.maxPerSecond?.message as string | undefined;

  return (
    <>
      <NameAndUrlFields
        id="destination"
        form={form}
        placeholders={{ name: "Tenant app", url: "https://app.example.com/webhooks/authenticator" }}
        urlHint={DESTINATION_URL_HINT}
      />
      <fieldset className="space-y-2" aria-describedby={errors.signing ? "destination-signing-error" : undefined}>
        <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">Signing</legend>
        {SIGNING_MODE_VALUES.map((mode) => {
          const unavailable = mode === "service" && !hasServerKey;
          return (
            <label key={mode} className="flex items-start gap-2 text-sm text-slate-700 dark:text-slate-300">
              <input
                type="radio"
                value={mode}
                disabled={unavailable}
                className="mt-0.5 accent-indigo-600"
                {...register("signing")}
              />
              <span>
                {SIGNING_MODES[mode]}
                {unavailable ? (
                  <span className="block text-xs text-slate-500 dark:text-slate-400">
                    {SERVICE_SIGNING_NEEDS_SERVER_KEY}
                  </span>
                ) : null}
              </span>
            </label>
          );
        })}
        {errors.signing ? (
          <p id="destination-signing-error" role="alert" className="text-sm text-red-700 dark:text-red-400">
            {errors.signing.message}
          </p>
        ) : null}
        {watch("signing") === "standard_webhooks" ? (
          <div className="flex items-start gap-2 text-sm text-slate-700 dark:text-slate-300">
            <input
              id="destination-unverified"
              type="checkbox"
              className="mt-0.5 accent-indigo-600"
              aria-describedby="destination-unverified-hint"
              {...register("includeUnverified")}
            />
            <div>
              <label htmlFor="destination-unverified">Include events the console could not verify</label>
              <p id="destination-unverified-hint" className="text-xs text-slate-500 dark:text-slate-400">
                Events stored while the connection had no server key: anyone with its webhook address could have posted
                them. Each forward is marked verified or unsigned, so the handler can tell them apart.
              </p>
            </div>
          </div>
        ) : null}
      </fieldset>
      <RateField id="destination-rate" error={rateError} register={register("maxPerSecond")} />
      <ChoiceGroup
        legend="Event types"
        hint="None ticked: every type."
        values={KNOWN_EVENT_TYPES}
        register={register("eventTypes")}
      />
      <ChoiceGroup
        legend="Verification methods"
        hint="None ticked: every method."
        values={KNOWN_METHODS}
        register={register("verificationMethods")}
      />
    </>
  );
}

/** A destination's optional cap on deliveries per second, as adding and editing one ask for it. */
export function RateField({ id, error, register }: { id: string; error?: string; register: UseFormRegisterReturn }) {
  return (
    <Field
      id={id}
      label="Maximum deliveries per second"
      error={error}
      hint={`Optional, 1 to ${MAX_PER_SECOND_LIMIT}; empty: no cap. Live forwards, retries and replays all keep to it.`}
    >
      <Input
        {...fieldControlProps(id, error, true)}
        type="number"
        inputMode="numeric"
        min={1}
        max={MAX_PER_SECOND_LIMIT}
        step={1}
        className="sm:w-40"
        {...register}
      />
    </Field>
  );
}

export function ChoiceGroup({
  legend,
  hint,
  values,
  register,
}: {
  legend: string;
  hint: string;
  values: readonly string[];
  register: UseFormRegisterReturn;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">
        {legend} <span className="font-normal text-slate-500 dark:text-slate-400">· {hint}</span>
      </legend>
      <div className="grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-2">
        {values.map((value) => (
          <label key={value} className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
            <input type="checkbox" value={value} className="accent-indigo-600" {...register} />
            <code className="text-[0.8125rem]">{value}</code>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
