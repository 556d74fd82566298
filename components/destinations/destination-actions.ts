import type { ActionResult } from "@/lib/call-action";
import type {
  CreateDestinationInput,
  DestinationIdInput,
  SetDestinationEnabledInput,
  SetDestinationRateInput,
} from "@/lib/destinations/schemas";
import type { DestinationSecretResult } from "@/lib/destinations/types";

/** The destinations' server actions, handed down as props (components never import app/). */
export type DestinationActions = {
  create: (input: CreateDestinationInput) => Promise<DestinationSecretResult>;
  setEnabled: (input: SetDestinationEnabledInput) => Promise<ActionResult>;
  setRate: (input: SetDestinationRateInput) => Promise<ActionResult>;
  remove: (input: DestinationIdInput) => Promise<ActionResult>;
  rotate: (input: DestinationIdInput) => Promise<DestinationSecretResult>;
};
