import type { DestinationActions } from "@/components/destinations/destination-actions";
import type { ForwardingActions } from "@/components/destinations/forwarding-actions";

import {
  cancelReplayAction,
  createDestinationAction,
  previewReplayAction,
  removeDestinationAction,
  resendEventAction,
  rotateDestinationSecretAction,
  setDestinationEnabledAction,
  setDestinationRateAction,
  startReplayAction,
} from "./actions";

/** The actions an admin's destination list is handed, on this page and on a connection's page. */
export const destinationActions: DestinationActions = {
  create: createDestinationAction,
  setEnabled: setDestinationEnabledAction,
  setRate: setDestinationRateAction,
  remove: removeDestinationAction,
  rotate: rotateDestinationSecretAction,
};

/** The actions an admin's webhook log is handed: resend from an event's drawer, replay its filters. */
export const forwardingActions: ForwardingActions = {
  resend: resendEventAction,
  previewReplay: previewReplayAction,
  startReplay: startReplayAction,
  cancelReplay: cancelReplayAction,
};
