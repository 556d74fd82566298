"use client";

import { signIn } from "next-auth/react";
import { useState } from "react";
import { useForm } from "react-hook-form";

import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Field, fieldControlProps, Input } from "@/components/ui/input";
import type { SignInInput } from "@/lib/auth/schemas";
import { lazyZodResolver } from "@/lib/lazy-resolver";

export function SignInForm({ callbackPath, autoFocus }: { callbackPath: string; autoFocus: boolean }) {
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignInInput>({
    resolver: lazyZodResolver(() => import("@/lib/auth/schemas").then((m) => m.signInSchema)),
    defaultValues: { email: "", password: "" },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const result = await signIn("credentials", { ...values, redirect: false });
    if (!result || result.error) {
      setFailure(result?.error && result.error !== "CredentialsSignin" ? result.error : "Sign-in failed. Try again.");
      return;
    }
    // A full navigation, so the server renders the shell with the new session.
    window.location.assign(callbackPath);
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="space-y-4"
      aria-describedby={failure ? "sign-in-failure" : undefined}
    >
      {failure ? (
        <div id="sign-in-failure">
          <Alert tone="danger">{failure}</Alert>
        </div>
      ) : null}
      <Field id="email" label="Email" error={errors.email?.message}>
        <Input
          {...fieldControlProps("email", errors.email?.message)}
          type="email"
          autoComplete="username"
          autoFocus={autoFocus}
          {...register("email")}
        />
      </Field>
      <Field id="password" label="Password" error={errors.password?.message}>
        <Input
          {...fieldControlProps("password", errors.password?.message)}
          type="password"
          autoComplete="current-password"
          {...register("password")}
        />
      </Field>
      <Button type="submit" untilHydrated className="w-full" disabled={isSubmitting}>
        {isSubmitting ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
