import { ShieldAlert, ShieldCheck, ShieldQuestion } from "lucide-react";

import { cn } from "@/components/ui/cn";
import { signatureLabels } from "@/lib/webhooks/format";

const icons = { success: ShieldCheck, warning: ShieldAlert, neutral: ShieldQuestion } as const;
const colours = {
  success: "text-emerald-700 dark:text-emerald-400",
  warning: "text-amber-800 dark:text-amber-300",
  neutral: "text-slate-700 dark:text-slate-300",
} as const;

/**
 * The signature check as an icon and a short label ("key 1"), the full sentence in the title. `full` says
 * "verified (key 1)".
 */
export function SignatureBadge({
  status,
  full = false,
  className,
}: {
  status: string;
  full?: boolean;
  className?: string;
}) {
  const info = signatureLabels[status] ?? { label: status, short: status, tone: "neutral" as const, title: status };
  const Icon = icons[info.tone];
  return (
    <span
      title={info.title}
      className={cn(
        "inline-flex items-center gap-1 text-xs font-medium whitespace-nowrap",
        colours[info.tone],
        className,
      )}
    >
      <Icon aria-hidden="true" className="size-4 shrink-0" />
      {full ? (
        info.label
      ) : (
        <>
          <span aria-hidden="true">{info.short}</span>
          <span className="sr-only">{info.label}</span>
        </>
      )}
    </span>
  );
}
