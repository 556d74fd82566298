import type { Metadata } from "next";

import { AuthCard } from "@/components/auth/auth-card";
import { Link } from "@/components/ui/link";
import { signInSettings } from "@/lib/auth/oidc-config";
import { SSO_LINK_PATH, ssoRefusalReasonSchema, ssoRefusalText } from "@/lib/auth/sso-messages";

export const metadata: Metadata = { title: "Sign-in refused" };

/** Where a refused single sign-on lands (see admitSsoSignIn). Public: it names the reason, never the person. */
export default async function SignInRefusedPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { reason } = await searchParams;
  const parsed = ssoRefusalReasonSchema.safeParse(Array.isArray(reason) ? reason[0] : reason);
  const { sso, passwordSignIn } = signInSettings();
  const text = ssoRefusalText(
    parsed.success ? parsed.data : undefined,
    sso.status === "on" ? sso.config.name : "your identity provider",
    passwordSignIn,
  );
  // Signing in with the password leads on to the page that starts the single sign-on to link.
  const confirmLink = parsed.success && parsed.data === "link_requires_password" && passwordSignIn;

  return (
    <AuthCard title="You are not signed in">
      <div className="space-y-4 text-sm text-slate-700 dark:text-slate-300">
        <h2 className="text-base font-semibold text-slate-900 dark:text-slate-100">{text.title}</h2>
        <p>{text.why}</p>
        <p>
          <strong className="font-semibold text-slate-900 dark:text-slate-100">What to do: </strong>
          {text.whatToDo}
        </p>
        {confirmLink ? (
          <Link
            href={`/sign-in?callbackUrl=${encodeURIComponent(SSO_LINK_PATH)}`}
            className="inline-flex w-full items-center justify-center rounded-md bg-indigo-600 px-3.5 py-2 text-sm font-medium text-white shadow-sm hover:bg-indigo-700"
          >
            Sign in with its password
          </Link>
        ) : null}
        <Link
          href="/sign-in"
          className="inline-flex w-full items-center justify-center rounded-md bg-white px-3.5 py-2 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50 dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-600 dark:hover:bg-slate-700"
        >
          Back to sign-in
        </Link>
      </div>
    </AuthCard>
  );
}
