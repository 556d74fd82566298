"use server";

import type { ActionResult } from "@/lib/call-action";
import {
  createDestination,
  removeDestination,
  rotateDestinationSecret,
  setDestinationEnabled,
  setDestinationRate,
} from "@/lib/destinations/destinations";
import { resendEvent } from "@/lib/destinations/event-forwards";
import { cancelReplay, countReplay, startReplay } from "@/lib/destinations/replay";
import type {
  CreateDestinationInput,
  DestinationIdInput,
  ReplayIdInput,
  ReplayInput,
  ResendInput,
  SetDestinationEnabledInput,
  SetDestinationRateInput,
} from "@/lib/destinations/schemas";
import type { DestinationSecretResult, ReplayPreview, StartReplayResult } from "@/lib/destinations/types";
import { runAction } from "@/lib/server-action";

// Admins only; lib/destinations parses, checks the URL's rules and audits. The list shows on this page
// and on each connection's page.
const pages = ["/destinations", ["/connections/[id]", "page"]] as const;

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

export async function rotateDestinationSecretAction(input: DestinationIdInput): Promise<DestinationSecretResult> {
  return runAction({ name: "rotateDestinationSecretAction", role: "admin", revalidate: pages }, (user) =>
    rotateDestinationSecret(user, input),
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
