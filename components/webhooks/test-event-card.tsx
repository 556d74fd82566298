"use client";

import { CircleAlert, CircleCheck, CircleX, LoaderCircle, Send } from "lucide-react";
import { useId, useRef, useState } from "react";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Link } from "@/components/ui/link";
import { callAction } from "@/lib/call-action";
import { sendTestEventAction } from "@/lib/webhooks/actions";
import { TEST_EVENT_NEEDS_SERVER_KEY } from "@/lib/webhooks/constants";
import type { TestEventReport } from "@/lib/webhooks/types";

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
        connection&apos;s server key, to the webhook URL above, through its public address as the service would. It is
        stored marked as a test, with no real user&apos;s data, and left out of the overview.
      </p>
      <Button
        onClick={() => void send()}
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
        {shown.kind === "report" ? <TestEventReportPanel report={shown.report} /> : null}
      </div>
    </Card>
  );
}

const tones = {
  success: {
    icon: CircleCheck,
    panel:
      "bg-emerald-50 text-emerald-950 ring-emerald-200 dark:bg-emerald-950/50 dark:text-emerald-50 dark:ring-emerald-800",
    iconColour: "text-emerald-700 dark:text-emerald-300",
  },
  warning: {
    icon: CircleAlert,
    panel: "bg-amber-50 text-amber-950 ring-amber-200 dark:bg-amber-950/50 dark:text-amber-50 dark:ring-amber-800",
    iconColour: "text-amber-700 dark:text-amber-300",
  },
  danger: {
    icon: CircleX,
    panel: "bg-red-50 text-red-950 ring-red-200 dark:bg-red-950/50 dark:text-red-50 dark:ring-red-800",
    iconColour: "text-red-700 dark:text-red-300",
  },
} as const;

const toneOf: Record<TestEventReport["outcome"], keyof typeof tones> = {
  delivered: "success",
  elsewhere: "warning",
  redirect: "warning",
  refused: "danger",
  unreachable: "danger",
  timeout: "danger",
};

function TestEventReportPanel({ report }: { report: TestEventReport }) {
  const tone = tones[toneOf[report.outcome]];
  const Icon = tone.icon;
  return (
    <div className={cn("rounded-md p-3 text-sm ring-1", tone.panel)} data-outcome={report.outcome}>
      <p className="flex items-start gap-2 font-semibold">
        <Icon aria-hidden="true" className={cn("mt-0.5 size-4 shrink-0", tone.iconColour)} />
        <span className="wrap-anywhere">{report.headline}</span>
      </p>
      <p className="mt-1 pl-6">{report.explanation}</p>
      {report.receiverSaid ? (
        <p className="mt-1 pl-6">
          The receiver said: <code className="wrap-anywhere">{report.receiverSaid}</code>
        </p>
      ) : null}
      {report.logHref ? (
        <p className="mt-2 pl-6">
          <Link href={report.logHref} className="font-medium text-indigo-700 underline dark:text-indigo-300">
            Open it in the webhook log
          </Link>
        </p>
      ) : null}
      <dl className="mt-3 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1 pl-6 text-xs">
        <dt className="font-medium">URL</dt>
        <dd className="font-mono wrap-anywhere">{report.url}</dd>
        <dt className="font-medium">Answer</dt>
        <dd>{report.status === null ? "none" : `HTTP ${report.status}`}</dd>
        <dt className="font-medium">Time</dt>
        <dd>{report.ms} ms</dd>
      </dl>
    </div>
  );
}
