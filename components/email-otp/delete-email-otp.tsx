"use client";

import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { TypedConfirmDialog } from "@/components/ui/typed-confirm-dialog";
import { deleteEmailOtpAction } from "@/lib/email-otp/actions";

export function DeleteEmailOtp({
  connectionId,
  connectionName,
  regionLabel,
}: {
  connectionId: string;
  connectionName: string;
  regionLabel: string;
}) {
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
      }}
    >
      <p>
        This <strong>permanently deletes the tenant&apos;s email OTP configuration and its stored credentials</strong>.
        It cannot be undone from the console.
      </p>
      <p>
        Connection: <strong>{connectionName}</strong> · Region: <strong>{regionLabel}</strong>
      </p>
    </TypedConfirmDialog>
  );
}
