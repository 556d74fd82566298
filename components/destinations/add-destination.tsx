"use client";
import { Plus } from "lucide-react";
import type { useForm } from "react-hook-form";
import { AddDialog, useAddDialog } from "@/components/ui/add-dialog";
import { NameAndUrlFields } from "@/components/ui/name-url-fields";
import { newSecretShown } from "@/components/ui/secret-reveal";
import { toast } from "@/components/ui/toast";
import { SERVICE_SIGNING_NEEDS_SERVER_KEY, SIGNING_MODE_VALUES, SIGNING_MODES } from "@/lib/destinations/constants";
import type { CreateDestinationInput } from "@/lib/destinations/schemas";
import { KNOWN_EVENT_TYPES, KNOWN_METHODS } from "@/lib/webhooks/constants";
import type { DestinationActions } from "./destination-actions";

type FormValues = Omit<CreateDestinationInput, "connectionId">;

/** "Add a destination": where this connection's events go next, how they are signed, and which ones. */
export function AddDestination({ connectionId, hasServerKey, createAction }: { connectionId: string; hasServerKey: boolean; createAction: DestinationActions["create"] }) {
  const blank: FormValues = { name: "", url: "", signing: hasServerKey ? "service" : "standard_webhooks", eventTypes: [], verificationMethods: [] };
  const dialog = useAddDialog({
    schema: () => import("@/lib/destinations/schemas").then((m) => m.createDestinationSchema.omit({ connectionId: true })),
    blank,
    submit: (values: FormValues) => createAction({ ...values, connectionId }),
    added: (result) => {
      toast.success(`Added ${result.name}: new events are forwarded to it.`);
      return result.secret ? { name: result.name, secret: result.secret } : null;
    },
  });
  const {
    register,
    formState: { errors },
  } = dialog.form;

  return (
    <AddDialog
      dialog={dialog}
      trigger={{ label: "Add a destination", icon: Plus }}
      title="Add a destination"
      shown={newSecretShown("destination-secret", dialog.close)}
      submitLabel="Add destination"
    >
      <NameAndUrlFields
        id="destination"
        form={dialog.form}
        placeholders={{ name: "Tenant app", url: "https://app.example.com/webhooks/authenticator" }}
        urlHint="https only (hosts an operator allows with CONSOLE_FORWARD_ALLOWED_HOSTS excepted); no credentials in the URL; never a private or internal address."
      />
      <fieldset className="space-y-2" aria-describedby={errors.signing ? "destination-signing-error" : undefined}>
        <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">Signing</legend>
        {SIGNING_MODE_VALUES.map((mode) => {
          const unavailable = mode === "service" && !hasServerKey;
          return (
            <label key={mode} className="flex items-start gap-2 text-sm text-slate-700 dark:text-slate-300">
              <input type="radio" value={mode} disabled={unavailable} className="mt-0.5 accent-indigo-600" {...register("signing")} />
              <span>
                {SIGNING_MODES[mode]}
                {unavailable ? <span className="block text-xs text-slate-500 dark:text-slate-400">{SERVICE_SIGNING_NEEDS_SERVER_KEY}</span> : null}
              </span>
            </label>
          );
        })}
        {errors.signing ? (
          <p id="destination-signing-error" role="alert" className="text-sm text-red-700 dark:text-red-400">
            {errors.signing.message}
          </p>
        ) : null}
      </fieldset>
      <ChoiceGroup legend="Event types" hint="None ticked: every type." values={KNOWN_EVENT_TYPES} register={register("eventTypes")} />
      <ChoiceGroup legend="Verification methods" hint="None ticked: every method." values={KNOWN_METHODS} register={register("verificationMethods")} />
    </AddDialog>
  );
}

function ChoiceGroup({ legend, hint, values, register }: { legend: string; hint: string; values: readonly string[]; register: ReturnType<ReturnType<typeof useForm<FormValues>>["register"]> }) {
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
