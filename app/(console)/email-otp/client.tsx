"use client";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { toast } from "sonner";
import { TypedConfirmDialog } from "@/components/connections/typed-confirm-dialog";
import { Button } from "@/components/ui/button";
import { deleteEmailOtpAction } from "./actions";

export function DeleteEmailOtp({ connectionId, connectionName, regionLabel }: { connectionId: string; connectionName: string; regionLabel: string }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  // Guards against a second submit before React has re-rendered the disabled button.
  const sending = useRef(false);

  const confirm = async (typed: string) => {
    if (sending.current) return;
    sending.current = true;
    setPending(true);
    try {
      const result = await deleteEmailOtpAction({ connectionId, confirmName: typed });
      if (result.ok) {
        setOpen(false);
        if (result.outcome === "deleted") toast.success(result.message);
        else toast.info(result.message);
        router.refresh();
      } else {
        toast.error(result.error);
      }
    } finally {
      sending.current = false;
      setPending(false);
    }
  };

  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>
        Delete configuration
      </Button>
      <TypedConfirmDialog
        open={open}
        onClose={() => setOpen(false)}
        title="Delete the email OTP configuration?"
        expected={connectionName}
        confirmLabel="Delete permanently"
        pending={pending}
        onConfirm={confirm}
      >
        <p>
          This <strong>permanently deletes the tenant&apos;s email OTP configuration and its stored credentials</strong>. It cannot be undone from
          the console.
        </p>
        <p>
          Connection: <strong>{connectionName}</strong> · Region: <strong>{regionLabel}</strong>
        </p>
      </TypedConfirmDialog>
    </>
  );
}
