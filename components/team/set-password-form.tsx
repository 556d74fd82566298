"use client";

import { useState, useSyncExternalStore } from "react";
import { useForm } from "react-hook-form";

import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Field, fieldControlProps, Input } from "@/components/ui/input";
import { callAction } from "@/lib/call-action";
import { lazyZodResolver } from "@/lib/lazy-resolver";
import { setPasswordAction } from "@/lib/team/actions";
import type { NewPasswordFormInput } from "@/lib/team/schemas";
import { PASSWORD_SETUP_TOKEN_SHAPE } from "@/lib/team/types";

/** Where the sign-in page says that the password is set. */
export const PASSWORD_SET_SIGN_IN_PATH = "/sign-in?notice=password-set";

// The token is the link's fragment: read in the browser only (the server never sees it), and again if it changes.
const subscribeToHash = (onChange: () => void) => {
  window.addEventListener("hashchange", onChange);
  return () => window.removeEventListener("hashchange", onChange);
};
const readToken = () => window.location.hash.slice(1);

export function SetPasswordForm() {
  // Null while rendered on the server, which has no fragment.
  const token = useSyncExternalStore(subscribeToHash, readToken, () => null);
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<NewPasswordFormInput>({
    resolver: lazyZodResolver(() => import("@/lib/team/schemas").then((m) => m.newPasswordFormSchema)),
    defaultValues: { password: "", confirmation: "" },
  });

  if (token === null) {
    return (
      <p aria-busy="true" className="text-sm text-slate-600 dark:text-slate-400">
        Reading the link…
      </p>
    );
  }
  if (!PASSWORD_SETUP_TOKEN_SHAPE.test(token)) {
    return (
      <Alert tone="danger" title="This link is incomplete">
        Open the whole link you were sent (it ends with a long code after a #), or ask an administrator for a new one.
      </Alert>
    );
  }

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const result = await callAction(() => setPasswordAction({ token, ...values }));
    if (!result.ok) {
      setFailure(result.error);
      return;
    }
    setDone(true);
    // Replaces this entry in the history, so Back does not return to the used link.
    window.location.replace(PASSWORD_SET_SIGN_IN_PATH);
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="space-y-4"
      aria-describedby={failure ? "set-password-failure" : undefined}
    >
      {failure ? (
        <div id="set-password-failure">
          <Alert tone="danger">{failure}</Alert>
        </div>
      ) : null}
      <Field id="new-password" label="New password" error={errors.password?.message} hint="At least 12 characters.">
        <Input
          {...fieldControlProps("new-password", errors.password?.message, true)}
          type="password"
          autoComplete="new-password"
          autoFocus
          {...register("password")}
        />
      </Field>
      <Field id="confirm-password" label="Repeat the password" error={errors.confirmation?.message}>
        <Input
          {...fieldControlProps("confirm-password", errors.confirmation?.message)}
          type="password"
          autoComplete="new-password"
          {...register("confirmation")}
        />
      </Field>
      <Button type="submit" untilHydrated className="w-full" disabled={isSubmitting || done}>
        {isSubmitting ? "Setting the password…" : "Set password"}
      </Button>
    </form>
  );
}
