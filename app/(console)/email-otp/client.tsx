"use client";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { TypedConfirmDialog } from "@/components/connections/typed-confirm-dialog";
import { Button } from "@/components/ui/button";
import { deleteEmailOtpAction } from "./actions";

export function DeleteEmailOtp({ connectionId, connectionName, regionLabel }: { connectionId: string; connectionName: string; regionLabel: string }) {
  const router = useRouter();
  return (
    <TypedConfirmDialog
      trigger={(open) => (
        <Button variant="danger" onClick={open}>
          Delete configuration
        </Button>
      )}
      title="Delete the email OTP configuration?"
      expected={connectionName}
      confirmLabel="Delete permanently"
      action={(typed) => deleteEmailOtpAction({ connectionId, confirmName: typed })}
      onDone={(result) => {
        if (result.outcome === "deleted") toast.success(result.message);
        else toast.info(result.message);
        router.refresh();
      }}
    >
      <p>
        This <strong>permanently deletes the tenant&apos;s email OTP configuration and its stored credentials</strong>. It cannot be undone from
        the console.
      </p>
      <p>
        Connection: <strong>{connectionName}</strong> · Region: <strong>{regionLabel}</strong>
      </p>
    </TypedConfirmDialog>
  );
}
