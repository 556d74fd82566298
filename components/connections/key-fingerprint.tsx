import { Time } from "@/components/ui/time";
import type { KeyFingerprint as Fingerprint } from "@/lib/connections/types";

/** A stored key as the UI may show it: its last four characters and when it was set. */
export function KeyFingerprint({ value }: { value: Fingerprint | undefined }) {
  if (!value) return <span className="text-slate-400">not set</span>;
  return (
    <span>
      <code className="rounded bg-slate-100 px-1">…{value.last4}</code> <span className="text-slate-500">set</span> <Time iso={value.setAt} />
    </span>
  );
}
