import type { AddNoticeTargetInput, NoticeTargetIdInput, ThresholdsInput } from "@/lib/alerts/schemas";
import type { NoticeTargetSecretResult, TestNoticeResult, ThresholdsResult } from "@/lib/alerts/types";
import type { ActionResult } from "@/lib/call-action";

/** The Alerts page's server actions, handed down as props to admins only (components never import app/). */
export type AlertActions = {
  acknowledge: (input: { alertId: string }) => Promise<ActionResult>;
  mute: (input: { alertId: string; hours: number }) => Promise<ActionResult>;
  unmute: (input: { alertId: string }) => Promise<ActionResult>;
  setThresholds: (input: ThresholdsInput) => Promise<ThresholdsResult>;
};

/** The notice targets' server actions (admins only, as the section itself). */
export type NoticeTargetActions = {
  add: (input: AddNoticeTargetInput) => Promise<NoticeTargetSecretResult>;
  remove: (input: NoticeTargetIdInput) => Promise<ActionResult>;
  test: (input: NoticeTargetIdInput) => Promise<TestNoticeResult>;
};
