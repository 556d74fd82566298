"use client";

import { Suspense, useState } from "react";

import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { onDemand } from "@/components/ui/on-demand";

// The form and the secret's view load when an admin first reaches for the button: not in the page's first load.
const Form = onDemand(() => import("./rotate-secret-form").then((m) => m.RotateSecretForm));

/**
 * "Rotate secret": a new Standard Webhooks secret, with the period the admin picks for the previous one to keep
 * signing beside it (several signatures in one header), so the receiver can switch without missing an event.
 */
export function RotateSecret({
  ids,
  name,
  disabled,
}: {
  ids: { connectionId: string; destinationId: string };
  name: string;
  disabled: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [rotated, setRotated] = useState(false);
  const close = () => {
    setOpen(false);
    setRotated(false);
  };
  return (
    <>
      <Button
        size="sm"
        variant="secondary"
        disabled={disabled}
        onMouseEnter={Form.preload}
        onFocus={Form.preload}
        onClick={() => setOpen(true)}
      >
        Rotate secret
      </Button>
      <Dialog
        open={open}
        onClose={close}
        title={rotated ? `New signing secret of ${name}` : `Rotate the secret of ${name}`}
      >
        <Suspense fallback={<Skeleton className="h-40 w-full" />}>
          <Form.Component ids={ids} name={name} onRotated={() => setRotated(true)} onClose={close} />
        </Suspense>
      </Dialog>
    </>
  );
}
