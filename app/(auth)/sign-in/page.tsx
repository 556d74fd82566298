import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { Suspense } from "react";

import { AuthCard } from "@/components/auth/auth-card";
import { SignInForm } from "@/components/auth/sign-in-form";
import { SsoProviderNote } from "@/components/auth/sso-provider-note";
import { SsoSignInButton } from "@/components/auth/sso-sign-in-button";
import { Alert } from "@/components/ui/card";
import { safeCallbackPath } from "@/lib/auth/callback";
import { getSessionUser } from "@/lib/auth/guards";
import { signInSettings } from "@/lib/auth/oidc-config";
import { signInErrorText } from "@/lib/auth/sso-messages";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const callbackPath = safeCallbackPath(params.callbackUrl);
  if (await getSessionUser()) redirect(callbackPath);
  const { sso, passwordSignIn } = signInSettings();
  const providerName = sso.status === "on" ? sso.config.name : "the identity provider";
  const errorCode = Array.isArray(params.error) ? params.error[0] : params.error;
  const error = signInErrorText(errorCode, providerName);

  return (
    <AuthCard title="Sign in to Tenant Console" description="For tenant administrators and support staff.">
      <div className="space-y-4">
        {params.notice === "password-set" && !error ? (
          <Alert tone="success">Your password is set. Sign in with it.</Alert>
        ) : null}
        {error ? (
          <div id="sign-in-error">
            <Alert tone="danger">{error}</Alert>
          </div>
        ) : null}
        {sso.status === "on" ? (
          <>
            <Suspense fallback={null}>
              <SsoProviderNote
                providerName={providerName}
                fresh={errorCode === "OAuthSignin"}
                passwordSignIn={passwordSignIn}
              />
            </Suspense>
            <SsoSignInButton providerName={providerName} callbackPath={callbackPath} primary={!passwordSignIn} />
            {passwordSignIn ? (
              <p className="flex items-center gap-3 text-xs uppercase tracking-wide text-slate-500 before:h-px before:flex-1 before:bg-slate-200 after:h-px after:flex-1 after:bg-slate-200 dark:text-slate-400 dark:before:bg-slate-700 dark:after:bg-slate-700">
                or with your password
              </p>
            ) : null}
          </>
        ) : null}
        {passwordSignIn ? <SignInForm callbackPath={callbackPath} autoFocus={sso.status !== "on"} /> : null}
        {sso.status === "invalid" ? (
          <p
            id="sso-misconfigured"
            className="rounded-md bg-slate-50 p-3 text-xs text-slate-600 ring-1 ring-slate-200 dark:bg-slate-800/60 dark:text-slate-400 dark:ring-slate-800"
          >
            <strong className="font-semibold text-slate-800 dark:text-slate-200">For administrators:</strong> single
            sign-on is configured but not working ({[...new Set(sso.problems.map((p) => p.variable))].join(", ")}). See
            the server log.
          </p>
        ) : null}
      </div>
    </AuthCard>
  );
}
