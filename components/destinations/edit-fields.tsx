"use client";

import { useForm } from "react-hook-form";

import { Button } from "@/components/ui/button";
import { Field, fieldControlProps, Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { useSerialAction } from "@/components/ui/use-serial-action";
import { callAction } from "@/lib/call-action";
import { updateDestinationAction } from "@/lib/destinations/actions";
import { DESTINATION_URL_HINT } from "@/lib/destinations/constants";
import type { DestinationSummary } from "@/lib/destinations/types";
import { KNOWN_EVENT_TYPES, KNOWN_METHODS } from "@/lib/webhooks/constants";

import { ChoiceGroup, RateField } from "./destination-fields";

type EditValues = { url: string; eventTypes: string[]; verificationMethods: string[]; maxPerSecond: string };

/**
 * The edit's form (edit-destination.tsx loads it on demand): the URL, event types, verification methods and cap;
 * the server checks them by the rules of adding one and says which field to fix.
 */
export function EditFields({ destination, onDone }: { destination: DestinationSummary; onDone: () => void }) {
  const form = useForm<EditValues>({
    defaultValues: {
      url: destination.url,
      eventTypes: destination.eventTypes ?? [],
      verificationMethods: destination.verificationMethods ?? [],
      maxPerSecond: destination.maxPerSecond === null ? "" : String(destination.maxPerSecond),
    },
  });
  const [pending, run] = useSerialAction();
  const { errors } = form.formState;
  const save = form.handleSubmit((values) =>
    run(async () => {
      const result = await callAction(() =>
        updateDestinationAction({ connectionId: destination.connectionId, destinationId: destination.id, ...values }),
      );
      if (result.ok) {
        toast.success(`Saved ${destination.name}.`);
        return onDone();
      }
      const field = "field" in result && result.field && result.field in values ? result.field : "root";
      form.setError(field as keyof EditValues | "root", { message: result.error });
    }),
  );
  const urlError = errors.url?.message;
  const rateError = errors.maxPerSecond?.message;
  const listError = errors.eventTypes?.message ?? errors.verificationMethods?.message ?? errors.root?.message;
  return (
    <form onSubmit={save} noValidate className="space-y-4" aria-label={`Edit ${destination.name}`}>
      <Field id="edit-destination-url" label="URL" error={urlError} hint={DESTINATION_URL_HINT}>
        <Input
          {...fieldControlProps("edit-destination-url", urlError, true)}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          autoFocus
          {...form.register("url")}
        />
      </Field>
      <RateField id="edit-destination-rate" error={rateError} register={form.register("maxPerSecond")} />
      <ChoiceGroup
        legend="Event types"
        hint="None ticked: every type."
        values={KNOWN_EVENT_TYPES}
        register={form.register("eventTypes")}
      />
      <ChoiceGroup
        legend="Verification methods"
        hint="None ticked: every method."
        values={KNOWN_METHODS}
        register={form.register("verificationMethods")}
      />
      {listError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {listError}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          Save changes
        </Button>
      </div>
    </form>
  );
}
