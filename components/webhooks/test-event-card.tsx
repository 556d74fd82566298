"use client";

import { LoaderCircle, Send } from "lucide-react";
import { Suspense, useId, useRef, useState } from "react";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { onDemand } from "@/components/ui/on-demand";
import { callAction } from "@/lib/call-action";
import { sendTestEventAction } from "@/lib/webhooks/actions";
import { TEST_EVENT_NEEDS_SERVER_KEY } from "@/lib/webhooks/constants";
import type { TestEventReport } from "@/lib/webhooks/types";

// The report's code loads when the button is first reached for (hover, focus, a press): the page's first load
// does not carry it.
const ReportPanel = onDemand(() => import("./test-event-report").then((m) => m.TestEventReportPanel));

type Shown =
  | { kind: "idle" }
  | { kind: "sending" }
  | { kind: "failed"; error: string }
  | { kind: "report"; report: TestEventReport };

/**
 * "Test the receiver": sends a signed sample event to the connection's public webhook URL and says
 * what came back. One request at a time however fast the button is pressed; the result is read out
 * (a polite live region that stays in the page, so its changes are announced).
 */
export function TestEventCard({ connectionId, hasServerKey }: { connectionId: string; hasServerKey: boolean }) {
  const [shown, setShown] = useState<Shown>({ kind: "idle" });
  // Guards against a second click before React has re-rendered the disabled button.
  const sending = useRef(false);
  const hintId = useId();
  const send = async () => {
    if (sending.current) return;
    sending.current = true;
    ReportPanel.preload();
    setShown({ kind: "sending" });
    try {
      const result = await callAction(() => sendTestEventAction({ connectionId }));
      setShown(result.ok ? { kind: "report", report: result.report } : { kind: "failed", error: result.error });
    } finally {
      sending.current = false;
    }
  };
  const pending = shown.kind === "sending";
  return (
    <Card>
      <h2 className="text-base font-semibold">Test the receiver</h2>
      <p className="mt-1 mb-4 text-sm text-slate-600 dark:text-slate-300">
        Sends a sample <code className="text-[0.8125rem]">authenticator.expired</code> event, signed with this
        connection&apos;s server key, to its webhook URL, through its public address as the service would. It is stored
        marked as a test, with no real user&apos;s data, and left out of the overview.
      </p>
      <Button
        onClick={() => void send()}
        onPointerEnter={ReportPanel.preload}
        onFocus={ReportPanel.preload}
        disabled={!hasServerKey || pending}
        aria-describedby={hasServerKey ? undefined : hintId}
      >
        {pending ? (
          <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
        ) : (
          <Send aria-hidden="true" className="size-4" />
        )}
        {pending ? "Sending…" : "Send a test event"}
      </Button>
      {hasServerKey ? null : (
        <p id={hintId} className="mt-2 text-sm text-slate-700 dark:text-slate-300">
          {TEST_EVENT_NEEDS_SERVER_KEY}
        </p>
      )}
      <div
        role="status"
        aria-live="polite"
        aria-atomic="true"
        data-testid="test-event-result"
        className="empty:hidden mt-4"
      >
        {shown.kind === "sending" ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">Sending the test event…</p>
        ) : null}
        {shown.kind === "failed" ? (
          <p className="text-sm font-medium text-red-700 dark:text-red-300">Not sent: {shown.error}</p>
        ) : null}
        {shown.kind === "report" ? (
          <Suspense fallback={<p className="text-sm text-slate-600 dark:text-slate-300">Showing the result…</p>}>
            <ReportPanel.Component report={shown.report} />
          </Suspense>
        ) : null}
      </div>
    </Card>
  );
}
