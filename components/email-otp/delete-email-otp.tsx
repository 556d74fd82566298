"use client";

import { useRouter } from "next/navigation";

import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { TypedConfirmDialog } from "@/components/ui/typed-confirm-dialog";
import type { DeleteEmailOtpInput } from "@/lib/email-otp/schemas";
import type { DeleteEmailOtpResult } from "@/lib/email-otp/types";

export type DeleteEmailOtpAction = (input: DeleteEmailOtpInput) => Promise<DeleteEmailOtpResult>;

export function DeleteEmailOtp({
  connectionId,
  connectionName,
  regionLabel,
  deleteAction,
}: {
  connectionId: string;
  connectionName: string;
  regionLabel: string;
  deleteAction: DeleteEmailOtpAction;
}) {
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
      action={(typed) => deleteAction({ connectionId, confirmName: typed })}
      onDone={(result) => {
        if (result.outcome === "deleted") toast.success(result.message);
        else toast.info(result.message);
        router.refresh();
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
