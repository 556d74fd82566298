"use client";

import { createContext, useContext } from "react";

import type { ActionResult } from "@/lib/call-action";
import type { ReplayIdInput, ReplayInput, ResendInput } from "@/lib/destinations/schemas";
import type { ReplayPreview, StartReplayResult } from "@/lib/destinations/types";

/** What an admin may do from the log (resend an event, replay a filter), handed down by the page. */
export type ForwardingActions = {
  resend: (input: ResendInput) => Promise<ActionResult>;
  previewReplay: (input: ReplayInput) => Promise<ActionResult<ReplayPreview>>;
  startReplay: (input: ReplayInput) => Promise<StartReplayResult>;
  cancelReplay: (input: ReplayIdInput) => Promise<ActionResult<{ cancelled: number }>>;
};

const ForwardingActionsContext = createContext<ForwardingActions | null>(null);

/** Gives the log's drawer the admin's forwarding actions; without it (support) the forwards are read-only. */
export function ForwardingActionsProvider({
  actions,
  children,
}: {
  actions: ForwardingActions;
  children: React.ReactNode;
}) {
  return <ForwardingActionsContext.Provider value={actions}>{children}</ForwardingActionsContext.Provider>;
}

export const useForwardingActions = () => useContext(ForwardingActionsContext);
