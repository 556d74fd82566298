"use client";

import { signIn } from "next-auth/react";
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";

/**
 * Starts single sign-on with next-auth's signIn(), which POSTs with fetch and then moves the page to the provider: the
 * CSP (form-action 'self') blocks a form POST redirected to another origin. An unreachable provider sends the page
 * back to /sign-in?error=OAuthSignin, which says so.
 */
export function SsoSignInButton({
  providerName,
  callbackPath,
  primary,
}: {
  providerName: string;
  callbackPath: string;
  primary: boolean;
}) {
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function start() {
    setPending(true);
    setFailure(null);
    try {
      await signIn("oidc", { callbackUrl: callbackPath });
      // The page is on its way to the provider: the button stays busy.
    } catch {
      setFailure("The console could not be reached to start single sign-on. Check your connection and try again.");
      setPending(false);
    }
  }

  return (
    <div className="space-y-3">
      {failure ? (
        <div id="sso-failure">
          <Alert tone="danger">{failure}</Alert>
        </div>
      ) : null}
      <Button
        variant={primary ? "primary" : "secondary"}
        className="w-full"
        onClick={start}
        disabled={pending}
        aria-describedby={failure ? "sso-failure" : undefined}
      >
        {pending ? `Going to ${providerName}…` : `Sign in with ${providerName}`}
      </Button>
    </div>
  );
}
