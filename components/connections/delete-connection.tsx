"use client";

import { useRouter } from "next/navigation";

import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { TypedConfirmDialog } from "@/components/ui/typed-confirm-dialog";
import { deleteConnectionAction } from "@/lib/connections/actions";
import { regionLabels, type Region } from "@/lib/service/regions";

export function DeleteConnection({ id, name, region }: { id: string; name: string; region: Region }) {
  const router = useRouter();
  return (
    <TypedConfirmDialog
      trigger={(open) => (
        <Button variant="danger" onClick={open}>
          Delete connection
        </Button>
      )}
      title={`Delete ${name}?`}
      expected={name}
      confirmLabel="Delete connection"
      action={(typed) => deleteConnectionAction({ id, confirmName: typed })}
      onDone={() => {
        toast.success(`Deleted ${name}.`);
        router.push("/connections");
      }}
    >
      <p>
        This removes the connection to <strong>{name}</strong> ({regionLabels[region]}) from the console: its stored
        keys, its data point watch list and its webhook history. The tenant itself is not changed. Webhooks sent to its
        URL will be refused.
      </p>
    </TypedConfirmDialog>
  );
}
