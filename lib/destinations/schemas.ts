import { z } from "zod";
import { displayNameSchema } from "@/lib/display-name";
import { SIGNING_MODE_VALUES } from "./constants";

/** One schema per input, shared by the form, the server actions and the CLI. Client-safe. */

/** A list of names an event must match (event types, verification methods); empty: every one. */
const matchList = (what: string) =>
  z
    .array(z.string().trim().min(1).max(100).regex(/^[A-Za-z0-9_.:-]+$/, `A ${what} is letters, digits and . _ : - only.`))
    .max(50, `At most 50 ${what}s.`)
    .transform((values) => [...new Set(values)]);

export const createDestinationSchema = z.object({
  connectionId: z.uuid(),
  name: displayNameSchema({ required: "Give the destination a name.", max: 100 }),
  // The rules on the address (https, no credentials, allowed hosts) are lib/outbound's, checked on the server.
  url: z.string().trim().min(1, "Enter the URL to forward to.").max(2048, "URLs have at most 2048 characters."),
  signing: z.enum(SIGNING_MODE_VALUES, "Choose how forwarded events are signed."),
  eventTypes: matchList("event type"),
  verificationMethods: matchList("verification method"),
});
export type CreateDestinationInput = z.input<typeof createDestinationSchema>;

export const destinationIdSchema = z.object({ connectionId: z.uuid(), destinationId: z.uuid() });
export type DestinationIdInput = z.infer<typeof destinationIdSchema>;

export const setDestinationEnabledSchema = destinationIdSchema.extend({ enabled: z.boolean() });
export type SetDestinationEnabledInput = z.infer<typeof setDestinationEnabledSchema>;

/** A replay: the log's filters (its query string) to one destination of the connection. */
export const replayInputSchema = z.object({ connectionId: z.uuid(), destinationId: z.uuid(), filters: z.string().max(4096) });
export type ReplayInput = z.infer<typeof replayInputSchema>;

export const replayIdSchema = z.object({ replayId: z.uuid() });
export type ReplayIdInput = z.infer<typeof replayIdSchema>;

/** Send one event to one destination again. */
export const resendInputSchema = z.object({ connectionId: z.uuid(), destinationId: z.uuid(), eventId: z.string().min(1).max(200) });
export type ResendInput = z.infer<typeof resendInputSchema>;
