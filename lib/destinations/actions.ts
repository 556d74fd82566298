"use server";

import type { ActionResult } from "@/lib/call-action";
import {
  createDestination,
  removeDestination,
  revealDestinationSecret,
  rotateDestinationSecret,
  sendDestinationTestEvent,
  setDestinationEnabled,
  setDestinationRate,
  updateDestination,
} from "@/lib/destinations/destinations";
import { resendEvent } from "@/lib/destinations/event-forwards";
import { cancelReplay, countReplay, startReplay } from "@/lib/destinations/replay";
import type {
  CreateDestinationInput,
  DestinationIdInput,
  ReplayIdInput,
  ReplayInput,
  ResendInput,
  RotateDestinationSecretInput,
  SetDestinationEnabledInput,
  SetDestinationRateInput,
  UpdateDestinationInput,
} from "@/lib/destinations/schemas";
import type {
  DestinationSecretResult,
  DestinationTestResult,
  ReplayPreview,
  StartReplayResult,
  UpdateDestinationResult,
} from "@/lib/destinations/types";
import { runAction } from "@/lib/server-action";

// Admins only; lib/destinations parses, checks the URL's rules and audits. The list shows on this page,
// on each connection's page and on each destination's own page.
const pages = ["/destinations", ["/connections/[id]", "page"], ["/destinations/[id]", "page"]] as const;

export async function createDestinationAction(input: CreateDestinationInput): Promise<DestinationSecretResult> {
  return runAction({ name: "createDestinationAction", role: "admin", revalidate: pages }, (user) =>
    createDestination(user, input),
  );
}

export async function setDestinationEnabledAction(input: SetDestinationEnabledInput): Promise<ActionResult> {
  return runAction({ name: "setDestinationEnabledAction", role: "admin", revalidate: pages }, (user) =>
    setDestinationEnabled(user, input),
  );
}

export async function setDestinationRateAction(input: SetDestinationRateInput): Promise<ActionResult> {
  return runAction({ name: "setDestinationRateAction", role: "admin", revalidate: pages }, (user) =>
    setDestinationRate(user, input),
  );
}

export async function removeDestinationAction(input: DestinationIdInput): Promise<ActionResult> {
  return runAction({ name: "removeDestinationAction", role: "admin", revalidate: pages }, (user) =>
    removeDestination(user, input),
  );
}

export async function rotateDestinationSecretAction(
  input: RotateDestinationSecretInput,
): Promise<DestinationSecretResult> {
  return runAction({ name: "rotateDestinationSecretAction", role: "admin", revalidate: pages }, (user) =>
    rotateDestinationSecret(user, input),
  );
}

export async function updateDestinationAction(input: UpdateDestinationInput): Promise<UpdateDestinationResult> {
  return runAction({ name: "updateDestinationAction", role: "admin", revalidate: pages }, (user) =>
    updateDestination(user, input),
  );
}

export async function sendDestinationTestEventAction(input: DestinationIdInput): Promise<DestinationTestResult> {
  return runAction({ name: "sendDestinationTestEventAction", role: "admin", revalidate: pages }, (user) =>
    sendDestinationTestEvent(user, input),
  );
}

// Nothing to revalidate: the secret is shown in the dialog that asked for it, and nowhere else.
export async function revealDestinationSecretAction(
  input: DestinationIdInput,
): Promise<ActionResult<{ secret: string }>> {
  return runAction({ name: "revealDestinationSecretAction", role: "admin" }, (user) =>
    revealDestinationSecret(user, input),
  );
}

// From the log (its drawer and its replay dialog), which polls for what follows: nothing to revalidate.

export async function resendEventAction(input: ResendInput): Promise<ActionResult> {
  return runAction({ name: "resendEventAction", role: "admin" }, (user) => resendEvent(user, input));
}

export async function previewReplayAction(input: ReplayInput): Promise<ActionResult<ReplayPreview>> {
  return runAction({ name: "previewReplayAction", role: "admin" }, () => countReplay(input));
}

export async function startReplayAction(input: ReplayInput): Promise<StartReplayResult> {
  return runAction({ name: "startReplayAction", role: "admin" }, (user) => startReplay(user, input));
}

export async function cancelReplayAction(input: ReplayIdInput): Promise<ActionResult<{ cancelled: number }>> {
  return runAction({ name: "cancelReplayAction", role: "admin" }, (user) => cancelReplay(user, input));
}
