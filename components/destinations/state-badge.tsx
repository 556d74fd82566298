"use client";

import { Badge, type BadgeTone } from "@/components/ui/badge";
import { BREAKER_WORDS } from "@/lib/destinations/constants";
import type { DestinationHealth, DestinationState } from "@/lib/destinations/types";

import { ProbeWhen } from "./probe-when";

const stateBadges: Record<DestinationState, { tone: BadgeTone; label: string }> = {
  delivered: { tone: "success", label: "Delivering" },
  failing: { tone: "danger", label: "Failing" },
  tripped: { tone: "warning", label: BREAKER_WORDS },
  paused: { tone: "warning", label: "Paused" },
  off: { tone: "neutral", label: "Off" },
};

/** A destination's state as a badge; a tripped breaker in words, with its next try ("next try in 30 s"). */
export function StateBadge({ health }: { health: Pick<DestinationHealth, "state" | "tripped"> }) {
  const badge = stateBadges[health.state];
  return (
    <>
      <Badge tone={badge.tone}>{badge.label}</Badge>
      {health.state === "tripped" && health.tripped ? (
        <span className="text-xs font-normal text-slate-600 dark:text-slate-400">
          <ProbeWhen probeAt={health.tripped.probeAt} />
        </span>
      ) : null}
    </>
  );
}
