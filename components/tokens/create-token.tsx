"use client";

import { KeyRound } from "lucide-react";

import { AddDialog, useAddDialog } from "@/components/ui/add-dialog";
import { Field, fieldControlProps, Input, Select } from "@/components/ui/input";
import { SecretReveal } from "@/components/ui/secret-reveal";
import { toast } from "@/components/ui/toast";
import { createApiTokenAction } from "@/lib/tokens/actions";
import { apiTokenScopes, scopeLabels, TOKEN_EXPIRY_MAX_DAYS } from "@/lib/tokens/constants";
import type { CreateApiTokenInput } from "@/lib/tokens/schemas";

const blank: CreateApiTokenInput = { name: "", role: "support", scopes: ["api"], expiresInDays: "" };

/** "Create a token": name, role, scopes and expiry, then the secret, shown this once. */
export function CreateApiToken() {
  const dialog = useAddDialog({
    schema: () => import("@/lib/tokens/schemas").then((m) => m.createApiTokenSchema),
    blank,
    submit: createApiTokenAction,
    added: (result) => {
      toast.success(`Created ${result.name}.`);
      return { name: result.name, secret: result.secret };
    },
  });
  const {
    register,
    formState: { errors },
  } = dialog.form;
  const scopesError = errors.scopes?.message ?? errors.scopes?.root?.message;

  return (
    <AddDialog
      dialog={dialog}
      trigger={{ label: "Create a token", icon: KeyRound }}
      title="Create an API token"
      shown={(added) => ({
        title: `Secret of ${added.name}`,
        view: (
          <SecretReveal
            name={added.name}
            secret={added.secret}
            rotated={false}
            testId="api-token-secret"
            onDone={dialog.close}
            what="token"
            note="This is the only time the console shows this token: it keeps only a hash. Store it where the script or monitor reads its secrets; if it is lost, revoke it and create another."
          />
        ),
      })}
      submitLabel="Create token"
    >
      <Field
        id="token-name"
        label="Name"
        error={errors.name?.message}
        hint="What uses it, e.g. nightly export or Prometheus."
      >
        <Input
          {...fieldControlProps("token-name", errors.name?.message, true)}
          autoComplete="off"
          autoFocus
          {...register("name")}
        />
      </Field>
      <Field
        id="token-role"
        label="Role"
        error={errors.role?.message}
        hint="Support: read-only and masked, as a support user sees. Admin: what you may do."
      >
        <Select {...fieldControlProps("token-role", errors.role?.message, true)} {...register("role")}>
          <option value="support">Support</option>
          <option value="admin">Admin</option>
        </Select>
      </Field>
      <fieldset className="space-y-1.5" aria-describedby={scopesError ? "token-scopes-error" : undefined}>
        <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">Scopes</legend>
        {apiTokenScopes.map((scope) => (
          <label key={scope} className="flex items-center gap-2 text-sm text-slate-800 dark:text-slate-200">
            <input type="checkbox" value={scope} className="size-4 accent-indigo-600" {...register("scopes")} />
            {scopeLabels[scope]}
          </label>
        ))}
        {scopesError ? (
          <p id="token-scopes-error" role="alert" className="text-sm text-red-700 dark:text-red-400">
            {scopesError}
          </p>
        ) : null}
      </fieldset>
      <Field
        id="token-expiry"
        label="Expires after (days)"
        error={errors.expiresInDays?.message}
        hint="Empty: it never expires."
      >
        <Input
          {...fieldControlProps("token-expiry", errors.expiresInDays?.message, true)}
          type="number"
          inputMode="numeric"
          min={1}
          max={TOKEN_EXPIRY_MAX_DAYS}
          {...register("expiresInDays")}
        />
      </Field>
    </AddDialog>
  );
}
