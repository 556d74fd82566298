"use server";

import {
  acknowledgeAlert,
  addNoticeTarget,
  muteAlert,
  removeNoticeTarget,
  sendTestNotice,
  setThresholds,
  unmuteAlert,
} from "@/lib/alerts/alerts";
import type { AddNoticeTargetInput, NoticeTargetIdInput, ThresholdsInput } from "@/lib/alerts/schemas";
import { runAction } from "@/lib/server-action";

// Admins only; lib/alerts parses, finds the open alert and audits. An alert's state shows on this page,
// in the console layout's banner and navigation, and on the overview's cards: the layout is revalidated.
const asAdmin = { role: "admin", revalidate: ["/alerts", ["/", "layout"]] } as const;

export async function acknowledgeAlertAction(input: { alertId: string }) {
  return runAction({ name: "acknowledgeAlertAction", ...asAdmin }, (user) => acknowledgeAlert(user, input));
}

export async function muteAlertAction(input: { alertId: string; hours: number }) {
  return runAction({ name: "muteAlertAction", ...asAdmin }, (user) => muteAlert(user, input));
}

export async function unmuteAlertAction(input: { alertId: string }) {
  return runAction({ name: "unmuteAlertAction", ...asAdmin }, (user) => unmuteAlert(user, input));
}

export async function setThresholdsAction(input: ThresholdsInput) {
  return runAction({ name: "setThresholdsAction", role: "admin", revalidate: ["/alerts"] }, (user) =>
    setThresholds(user, input),
  );
}

// The notice targets: admins only, as the section that offers them; lib/alerts parses, checks the URL and audits.
const targets = { role: "admin", revalidate: ["/alerts"] } as const;

export async function addNoticeTargetAction(input: AddNoticeTargetInput) {
  return runAction({ name: "addNoticeTargetAction", ...targets }, (user) => addNoticeTarget(user, input));
}

export async function removeNoticeTargetAction(input: NoticeTargetIdInput) {
  return runAction({ name: "removeNoticeTargetAction", ...targets }, (user) => removeNoticeTarget(user, input));
}

export async function sendTestNoticeAction(input: NoticeTargetIdInput) {
  return runAction({ name: "sendTestNoticeAction", role: "admin" }, (user) => sendTestNotice(user, input));
}
