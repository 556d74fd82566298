"use client";
import { Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "@/components/ui/toast";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Field, fieldControlProps, Input } from "@/components/ui/input";
import { callAction } from "@/lib/call-action";
import { SERVICE_SIGNING_NEEDS_SERVER_KEY, SIGNING_MODE_VALUES, SIGNING_MODES } from "@/lib/destinations/constants";
import type { CreateDestinationInput } from "@/lib/destinations/schemas";
import { lazyZodResolver } from "@/lib/lazy-resolver";
import { KNOWN_EVENT_TYPES, KNOWN_METHODS } from "@/lib/webhooks/constants";
import type { DestinationActions } from "./destination-actions";
import { SecretReveal } from "./secret-reveal";

type FormValues = Omit<CreateDestinationInput, "connectionId">;

/** "Add a destination": where this connection's events go next, how they are signed, and which ones. */
export function AddDestination({ connectionId, hasServerKey, createAction }: { connectionId: string; hasServerKey: boolean; createAction: DestinationActions["create"] }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const blank: FormValues = { name: "", url: "", signing: hasServerKey ? "service" : "standard_webhooks", eventTypes: [], verificationMethods: [] };
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<FormValues>({
    resolver: lazyZodResolver(() => import("@/lib/destinations/schemas").then((m) => m.createDestinationSchema.omit({ connectionId: true }))),
    defaultValues: blank,
  });

  const close = () => {
    setOpen(false);
    setCreated(null);
    setFailure(null);
    reset(blank);
  };

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const result = await callAction(() => createAction({ ...values, connectionId }));
    if (!result.ok) {
      if ("field" in result && result.field) setError(result.field, { message: result.error }, { shouldFocus: true });
      else setFailure(result.error);
      return;
    }
    toast.success(`Added ${result.name}: new events are forwarded to it.`);
    router.refresh();
    if (result.secret) setCreated({ name: result.name, secret: result.secret });
    else close();
  });

  return (
    <>
      <Button onClick={() => setOpen(true)}>
        <Plus aria-hidden="true" className="size-4" />
        Add a destination
      </Button>
      <Dialog open={open} onClose={close} title={created ? `Signing secret of ${created.name}` : "Add a destination"}>
        {created ? (
          <SecretReveal name={created.name} secret={created.secret} rotated={false} onDone={close} />
        ) : (
          <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Add a destination">
            {failure ? <Alert tone="danger">{failure}</Alert> : null}
            <Field id="destination-name" label="Name" error={errors.name?.message}>
              <Input {...fieldControlProps("destination-name", errors.name?.message)} autoComplete="off" autoFocus placeholder="Tenant app" {...register("name")} />
            </Field>
            <Field
              id="destination-url"
              label="URL"
              error={errors.url?.message}
              hint="https only (hosts an operator allows with CONSOLE_FORWARD_ALLOWED_HOSTS excepted); no credentials in the URL; never a private or internal address."
            >
              <Input
                {...fieldControlProps("destination-url", errors.url?.message, true)}
                type="url"
                inputMode="url"
                autoComplete="off"
                spellCheck={false}
                placeholder="https://app.example.com/webhooks/authenticator"
                {...register("url")}
              />
            </Field>
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
            <div className="flex justify-end gap-2">
              <Button variant="secondary" onClick={close} disabled={isSubmitting}>
                Cancel
              </Button>
              <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting}>
                {isSubmitting ? "Adding…" : "Add destination"}
              </Button>
            </div>
          </form>
        )}
      </Dialog>
    </>
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
