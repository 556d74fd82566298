"use client";

import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { TypedConfirmDialog } from "@/components/ui/typed-confirm-dialog";
import { useSerialAction } from "@/components/ui/use-serial-action";
import { removeNoticeTargetAction, sendTestNoticeAction } from "@/lib/alerts/actions";
import { callAction } from "@/lib/call-action";

/** A page target's buttons: a signed test notice (what came back, in a toast), and removal behind a typed confirm. */
export function NoticeTargetControls({ target }: { target: { id: string; name: string } }) {
  const [pending, run] = useSerialAction();
  const ids = { targetId: target.id };
  const test = () =>
    run(async () => {
      const result = await callAction(() => sendTestNoticeAction(ids));
      if (result.ok) toast.success(result.outcome);
      else toast.error(result.error);
    });
  return (
    <div className="flex flex-wrap gap-2">
      <Button size="sm" variant="secondary" disabled={pending} aria-busy={pending} onClick={test}>
        {pending ? "Sending…" : "Send a test"}
      </Button>
      <TypedConfirmDialog
        trigger={(open) => (
          <Button size="sm" variant="ghost" disabled={pending} onClick={open}>
            Remove
          </Button>
        )}
        title={`Remove ${target.name}`}
        expected={target.name}
        confirmLabel="Remove target"
        action={() => removeNoticeTargetAction(ids)}
        onDone={() => toast.success(`Removed ${target.name}: no more notices go to it.`)}
      >
        <p>
          Notices are no longer posted to it, and those still waiting for it are dropped. Alerts and the other targets
          are not touched.
        </p>
      </TypedConfirmDialog>
    </div>
  );
}
