import { Time } from "@/components/ui/time";
import type { KeyFingerprint as Fingerprint } from "@/lib/connections/types";

/**
 * A stored key as the UI may show it: its last four characters and when it was set (slate-600 and darker: readable
 * on white and on slate-50).
 */
export function KeyFingerprint({ value }: { value: Fingerprint | undefined }) {
  if (!value) return <span className="text-slate-600 dark:text-slate-300">not set</span>;
  return (
    <span>
      <code className="rounded bg-slate-100 dark:bg-slate-800 px-1 text-slate-900 dark:text-slate-100">
        …{value.last4}
      </code>{" "}
      <span className="text-slate-600 dark:text-slate-400">set</span> <Time iso={value.setAt} />
    </span>
  );
}
