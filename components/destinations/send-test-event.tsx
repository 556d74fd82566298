"use client";

import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { useSerialAction } from "@/components/ui/use-serial-action";
import { callAction } from "@/lib/call-action";
import { sendDestinationTestEventAction } from "@/lib/destinations/actions";

/** "Send a test event": one sample event, signed as the destination signs, sent now; its attempt joins the list. */
export function SendTestEvent({ ids, name }: { ids: { connectionId: string; destinationId: string }; name: string }) {
  const [pending, run] = useSerialAction();
  const send = () =>
    run(async () => {
      const result = await callAction(() => sendDestinationTestEventAction(ids));
      if (!result.ok) toast.error(result.error);
      else if (result.delivered)
        toast.success(`${name} took the test event: answered ${result.status} in ${result.durationMs} ms.`);
      else toast.error(`${name} did not take the test event: ${result.error}. Its attempt is listed below.`);
    });
  return (
    <Button size="sm" disabled={pending} onClick={send}>
      {pending ? "Sending…" : "Send a test event"}
    </Button>
  );
}
