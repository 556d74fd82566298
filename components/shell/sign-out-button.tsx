"use client";

import { useState } from "react";

import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";

/**
 * Signs out through next-auth's own endpoint with the two requests next-auth/react's signOut() makes (its CSRF token,
 * then the POST that clears the cookie), without shipping that client on every page (docs/performance.md, "Client
 * scripts").
 */
async function signOut(): Promise<boolean> {
  try {
    const csrf = await fetch("/api/auth/csrf");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const response = await fetch("/api/auth/signout", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, callbackUrl: "/sign-in", json: "true" }),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Disabled until hydrated, as every Button with an onClick is: served as HTML first, a click before its handler is
 * attached would do nothing.
 */
export function SignOutButton() {
  const [pending, setPending] = useState(false);
  return (
    <Button
      variant="secondary"
      size="sm"
      className="whitespace-nowrap"
      disabled={pending}
      onClick={async () => {
        setPending(true);
        if (await signOut()) {
          // A full load, so nothing of the signed-in pages stays in the router's cache.
          // eslint-disable-next-line @next/next/no-location-assign-relative-destination
          window.location.assign("/sign-in");
          return;
        }
        setPending(false);
        toast.error("Could not sign out: the console did not answer. Check your connection and try again.");
      }}
    >
      Sign out
    </Button>
  );
}
