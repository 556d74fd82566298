"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { deleteConnectionAction } from "@/app/(console)/connections/actions";
import { Button } from "@/components/ui/button";
import { regionLabels, type Region } from "@/lib/connections/regions";
import { TypedConfirmDialog } from "./typed-confirm-dialog";

export function DeleteConnection({ id, name, region }: { id: string; name: string; region: Region }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>
        Delete connection
      </Button>
      <TypedConfirmDialog
        open={open}
        onClose={() => setOpen(false)}
        title={`Delete ${name}?`}
        expected={name}
        confirmLabel="Delete connection"
        pending={pending}
        onConfirm={async (typed) => {
          setPending(true);
          const result = await deleteConnectionAction({ id, confirmName: typed });
          setPending(false);
          if (!result.ok) {
            toast.error(result.error);
            return;
          }
          setOpen(false);
          toast.success(`Deleted ${name}.`);
          router.push("/connections");
        }}
      >
        <p>
          This removes the connection to <strong>{name}</strong> ({regionLabels[region]}) from the console: its stored keys, its data point watch
          list and its webhook history. The tenant itself is not changed. Webhooks sent to its URL will be refused.
        </p>
      </TypedConfirmDialog>
    </>
  );
}
