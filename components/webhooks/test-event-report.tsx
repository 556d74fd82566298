"use client";

import { CircleAlert, CircleCheck, CircleX } from "lucide-react";

import { cn } from "@/components/ui/cn";
import { Link } from "@/components/ui/link";
import type { TestEventReport } from "@/lib/webhooks/types";

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

/** What a test event did, in words, toned by its outcome; loaded when a test is first sent (test-event-card.tsx). */
export function TestEventReportPanel({ report }: { report: TestEventReport }) {
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
