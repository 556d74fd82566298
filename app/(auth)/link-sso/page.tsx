import type { Metadata } from "next";
import { notFound } from "next/navigation";

import { AuthCard } from "@/components/auth/auth-card";
import { SsoSignInButton } from "@/components/auth/sso-sign-in-button";
import { Link } from "@/components/ui/link";
import { requireUser } from "@/lib/auth/guards";
import { signInSettings } from "@/lib/auth/oidc-config";

export const metadata: Metadata = { title: "Link single sign-on" };

/**
 * Where a console user confirms that a single sign-on identity is theirs (lib/auth/sso-link.ts): signed
 * in with their password, they start single sign-on here, and its callback sees this session and links
 * the identity. The refusal page for `link_requires_password` leads here through the sign-in page.
 */
export default async function LinkSsoPage() {
  const user = await requireUser();
  const { sso } = signInSettings();
  if (sso.status !== "on") notFound();
  const providerName = sso.config.name;

  return (
    <AuthCard title={`Link ${providerName}`} description={`Signed in as ${user.email}`}>
      <div className="space-y-4 text-sm text-slate-700 dark:text-slate-300">
        <p>
          Use <strong className="font-semibold text-slate-900 dark:text-slate-100">Sign in with {providerName}</strong>{" "}
          and sign in there as the person with this email address. The console then links that account to this one, and
          you can sign in either way.
        </p>
        <p>
          From then on your name, email and role follow your account at {providerName} at every sign-in, except a change
          of role that would leave the console without an enabled admin: that sign-in is refused.
        </p>
        <SsoSignInButton providerName={providerName} callbackPath="/" primary />
        <Link
          href="/"
          className="block text-center text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
        >
          Back to the console
        </Link>
      </div>
    </AuthCard>
  );
}
