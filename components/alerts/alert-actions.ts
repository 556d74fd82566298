import type { ActionResult } from "@/lib/call-action";
import type { ThresholdsInput } from "@/lib/alerts/schemas";
import type { ThresholdsResult } from "@/lib/alerts/types";

/** The Alerts page's server actions, handed down as props to admins only (components never import app/). */
export type AlertActions = {
  acknowledge: (input: { alertId: string }) => Promise<ActionResult>;
  mute: (input: { alertId: string; hours: number }) => Promise<ActionResult>;
  unmute: (input: { alertId: string }) => Promise<ActionResult>;
  setThresholds: (input: ThresholdsInput) => Promise<ThresholdsResult>;
};
