"use client";

import { useNow } from "@/components/ui/now";
import { Time } from "@/components/ui/time";

/** When a tripped destination's next probe goes: "next probe in 2 min", or, once its time has come, that one is due. */
export function ProbeWhen({ probeAt }: { probeAt: string | null }) {
  const now = useNow();
  if (probeAt === null || (now !== null && Date.parse(probeAt) <= now)) return <>a probe is due or under way</>;
  return (
    <>
      next probe <Time iso={probeAt} />
    </>
  );
}
