"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";

import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/input";
import { Link } from "@/components/ui/link";
import { toast } from "@/components/ui/toast";
import { callAction } from "@/lib/call-action";
import { createConnectionAction, updateConnectionAction } from "@/lib/connections/actions";
import type { UpdateConnectionInput } from "@/lib/connections/schemas";
import type { ConnectionMutationResult, ConnectionSummary } from "@/lib/connections/types";
import { lazyZodResolver } from "@/lib/lazy-resolver";
import { regionLabels, regions, type Region } from "@/lib/service/regions";

import { KeyFingerprint } from "./key-fingerprint";

type Values = Omit<UpdateConnectionInput, "id"> & { id?: string };

const keyFields = [
  {
    name: "managementKey",
    kind: "management",
    label: "Management API secret key",
    hint: "Tenant settings → API keys. Checked against the region when you save.",
  },
  {
    name: "serverKey",
    kind: "server",
    label: "Server API secret key (optional)",
    hint: "Verifies webhook signatures and looks up user authenticators.",
  },
  {
    name: "serverSecondaryKey",
    kind: "server_secondary",
    label: "Second server API secret key (optional)",
    hint: "While the tenant rotates its server key, both keys are accepted.",
  },
] as const;

/** Create or edit a connection. Key fields are write-only: they start empty and an empty one keeps the stored key. */
export function ConnectionForm({ connection }: { connection?: ConnectionSummary }) {
  const router = useRouter();
  const editing = connection !== undefined;
  const [problem, setProblem] = useState<Extract<ConnectionMutationResult, { ok: false }> | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    resetField,
    formState: { errors, isSubmitting },
  } = useForm<Values>({
    resolver: lazyZodResolver<Values>(() =>
      import("@/lib/connections/schemas").then((m) => (editing ? m.updateConnectionSchema : m.createConnectionSchema)),
    ),
    defaultValues: {
      id: connection?.id,
      name: connection?.name ?? "",
      region: connection?.region ?? "us",
      managementKey: "",
      serverKey: "",
      serverSecondaryKey: "",
      saveUnverified: false,
      allowSameKey: false,
      removeServerSecondaryKey: false,
    },
  });

  /**
   * `saveUnverified` and `allowSameKey` carry the admin's answers to an alert's question; the plain submit
   * asks afresh. A second connection to the same tenant, once confirmed, stays confirmed if the region
   * then cannot be reached and the admin saves unverified.
   */
  const [sameKeyConfirmed, setSameKeyConfirmed] = useState(false);
  const save = (confirmed: { saveUnverified?: boolean; allowSameKey?: boolean } = {}) =>
    handleSubmit(async (values) => {
      setProblem(null);
      const allowSameKey = confirmed.allowSameKey ?? false;
      setSameKeyConfirmed(allowSameKey);
      const input = { ...values, saveUnverified: confirmed.saveUnverified ?? false, allowSameKey };
      const result: ConnectionMutationResult = await callAction(() =>
        connection ? updateConnectionAction({ ...input, id: connection.id }) : createConnectionAction(input),
      );
      if (!result.ok) {
        // A problem with a remedy (another region, save anyway) goes in the alert with its button;
        // one about a single field goes next to that field.
        if (result.field && !result.suggestedRegion && !result.canSaveUnverified && !result.sameKeyAs)
          setError(result.field, { message: result.error });
        else setProblem(result);
        return;
      }
      toast.success(`${editing ? "Saved" : "Added"} ${values.name}${result.verified ? "" : " (unverified)"}.`);
      for (const f of keyFields) resetField(f.name);
      if (!editing) router.push(`/connections/${result.id}`);
    });

  const chooseRegion = (region: Region) => {
    setValue("region", region, { shouldDirty: true });
    setProblem(null);
  };

  return (
    <form
      onSubmit={save()}
      noValidate
      className="max-w-xl space-y-5"
      aria-label={editing ? "Edit connection" : "New connection"}
    >
      <div aria-live="polite">
        {problem ? (
          <Alert
            tone={problem.canSaveUnverified || problem.sameKeyAs ? "warning" : "danger"}
            title={
              problem.sameKeyAs
                ? "This tenant is already connected"
                : problem.canSaveUnverified
                  ? "Key not checked"
                  : "Not saved"
            }
          >
            <p>{problem.error}</p>
            {problem.sameKeyAs ? (
              <div className="mt-2 flex flex-wrap items-center gap-2">
                <Link
                  href={`/connections/${problem.sameKeyAs.id}`}
                  className="rounded-md px-2.5 py-1.5 text-sm font-medium text-indigo-800 underline dark:text-indigo-300"
                >
                  Open {problem.sameKeyAs.name}
                </Link>
                <Button size="sm" variant="secondary" disabled={isSubmitting} onClick={save({ allowSameKey: true })}>
                  {editing ? "Save anyway (second connection to this tenant)" : "Add a second connection anyway"}
                </Button>
              </div>
            ) : null}
            {problem.suggestedRegion ? (
              <Button
                size="sm"
                variant="secondary"
                className="mt-2"
                onClick={() => chooseRegion(problem.suggestedRegion!)}
              >
                Use {regionLabels[problem.suggestedRegion]}
              </Button>
            ) : null}
            {problem.canSaveUnverified ? (
              <Button
                size="sm"
                variant="secondary"
                className="mt-2"
                disabled={isSubmitting}
                onClick={save({ saveUnverified: true, allowSameKey: sameKeyConfirmed })}
              >
                Save anyway (unverified)
              </Button>
            ) : null}
          </Alert>
        ) : null}
      </div>
      <Field id="name" label="Name" error={errors.name?.message}>
        <Input id="name" autoComplete="off" aria-invalid={errors.name ? true : undefined} {...register("name")} />
      </Field>
      <Field
        id="region"
        label="Region"
        error={errors.region?.message}
        hint="The region the tenant was created in; each has its own address."
      >
        <Select id="region" aria-invalid={errors.region ? true : undefined} {...register("region")}>
          {regions.map((r) => (
            <option key={r} value={r}>
              {regionLabels[r]}
            </option>
          ))}
        </Select>
      </Field>
      {keyFields.map((f) => (
        <Field
          key={f.name}
          id={f.name}
          label={f.label}
          error={errors[f.name]?.message}
          hint={
            editing ? (
              <>
                Stored: <KeyFingerprint value={connection.keys[f.kind]} />. Leave empty to keep it. {f.hint}
              </>
            ) : (
              f.hint
            )
          }
        >
          <Input
            id={f.name}
            type="password"
            autoComplete="new-password"
            spellCheck={false}
            aria-invalid={errors[f.name] ? true : undefined}
            aria-describedby={errors[f.name] ? `${f.name}-error` : `${f.name}-hint`}
            {...register(f.name)}
          />
        </Field>
      ))}
      {editing && connection.keys.server_secondary ? (
        <label className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
          <input type="checkbox" {...register("removeServerSecondaryKey")} /> Remove the second server key (rotation
          finished)
        </label>
      ) : null}
      <Button type="submit" untilHydrated disabled={isSubmitting} aria-busy={isSubmitting}>
        {isSubmitting ? "Checking the key…" : editing ? "Save changes" : "Add connection"}
      </Button>
    </form>
  );
}
