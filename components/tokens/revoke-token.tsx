"use client";

import { useState } from "react";

import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toast";
import { useSerialAction } from "@/components/ui/use-serial-action";
import { callAction } from "@/lib/call-action";
import { revokeApiTokenAction } from "@/lib/tokens/actions";

/** Revoke, behind a confirmation: the token stops working at its next request, and cannot be restored. */
export function RevokeToken({ id, name }: { id: string; name: string }) {
  const [open, setOpen] = useState(false);
  const [pending, run] = useSerialAction();
  const revoke = () =>
    run(async () => {
      const result = await callAction(() => revokeApiTokenAction({ id }));
      if (result.ok) toast.success(`Revoked ${name}.`);
      else toast.error(result.error);
      setOpen(false);
    });
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)} aria-label={`Revoke ${name}`}>
        Revoke
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title={`Revoke ${name}?`}>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Whatever uses it gets 401 from its next request on. A revoked token cannot be restored: create another if it
          is needed again.
        </p>
        <div className="mt-4 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setOpen(false)} disabled={pending}>
            Cancel
          </Button>
          <Button variant="danger" onClick={revoke} disabled={pending} aria-busy={pending}>
            {pending ? "Revoking…" : "Revoke token"}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
