"use client";

import { useNow } from "@/components/ui/now";
import { nextTryWords } from "@/lib/destinations/display";

/** When a tripped destination's next try goes: "next try in 30 s", or, once its time has come, that it is under way. */
export function ProbeWhen({ probeAt }: { probeAt: string | null }) {
  return <>{nextTryWords(probeAt, useNow())}</>;
}
