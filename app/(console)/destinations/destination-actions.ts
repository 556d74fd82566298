import type { DestinationActions } from "@/components/destinations/destination-actions";
import { createDestinationAction, removeDestinationAction, rotateDestinationSecretAction, setDestinationEnabledAction } from "./actions";

/** The actions an admin's destination list is handed, on this page and on a connection's page. */
export const destinationActions: DestinationActions = {
  create: createDestinationAction,
  setEnabled: setDestinationEnabledAction,
  remove: removeDestinationAction,
  rotate: rotateDestinationSecretAction,
};
