"use client";

import { Suspense, useState } from "react";

import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { onDemand } from "@/components/ui/on-demand";
import { toast } from "@/components/ui/toast";
import { useSerialAction } from "@/components/ui/use-serial-action";
import { callAction } from "@/lib/call-action";
import { revealDestinationSecretAction } from "@/lib/destinations/actions";

// The secret's view loads when an admin first reaches for the button: not in the page's first load.
const SecretReveal = onDemand(() => import("@/components/ui/secret-reveal").then((m) => m.SecretReveal));

/** "Show signing secret": a Standard Webhooks destination's current secret, on demand, for admins; audited. */
export function RevealSecret({ ids, name }: { ids: { connectionId: string; destinationId: string }; name: string }) {
  const [secret, setSecret] = useState<string | null>(null);
  const [pending, run] = useSerialAction();
  const reveal = () =>
    run(async () => {
      const result = await callAction(() => revealDestinationSecretAction(ids));
      if (result.ok) setSecret(result.secret);
      else toast.error(result.error);
    });
  return (
    <>
      <Button
        size="sm"
        variant="secondary"
        disabled={pending}
        onMouseEnter={SecretReveal.preload}
        onFocus={SecretReveal.preload}
        onClick={reveal}
      >
        Show signing secret
      </Button>
      <Dialog open={secret !== null} onClose={() => setSecret(null)} title={`Signing secret of ${name}`}>
        {secret ? (
          <Suspense fallback={<Skeleton className="h-40 w-full" />}>
            <SecretReveal.Component
              name={name}
              secret={secret}
              rotated={false}
              testId="destination-revealed-secret"
              onDone={() => setSecret(null)}
              note={
                <>
                  The receiving application checks each forward&rsquo;s Standard Webhooks signature with it. Keep it out
                  of chats and tickets; each time it is shown is recorded in the audit log.
                </>
              }
            />
          </Suspense>
        ) : null}
      </Dialog>
    </>
  );
}
