import { z } from "zod";

import { displayNameSchema } from "@/lib/display-name";

import { MAX_PER_SECOND_LIMIT, SIGNING_MODE_VALUES } from "./constants";

/** One schema per input, shared by the form, the server actions and the CLI. Client-safe. */

/** A list of names an event must match (event types, verification methods); empty: every one. */
const matchList = (what: string) =>
  z
    .array(
      z
        .string()
        .trim()
        .min(1)
        .max(100)
        .regex(/^[A-Za-z0-9_.:-]+$/, `A ${what} is letters, digits and . _ : - only.`),
    )
    .max(50, `At most 50 ${what}s.`)
    .transform((values) => [...new Set(values)]);

const RATE_WORDS = `Maximum deliveries per second is a whole number from 1 to ${MAX_PER_SECOND_LIMIT}, or empty for no cap.`;

/** A cap on deliveries started per second: empty (a form's blank field) or absent is none (null). */
const maxPerSecond = z.preprocess(
  (value) =>
    value === "" || value === undefined || value === null
      ? null
      : typeof value === "string"
        ? Number(value.trim())
        : value,
  z.number(RATE_WORDS).int(RATE_WORDS).min(1, RATE_WORDS).max(MAX_PER_SECOND_LIMIT, RATE_WORDS).nullable(),
);

export const createDestinationSchema = z.object({
  connectionId: z.uuid(),
  name: displayNameSchema({ required: "Give the destination a name.", max: 100 }),
  // The rules on the address (https, no credentials, allowed hosts) are lib/outbound's, checked on the server.
  url: z.string().trim().min(1, "Enter the URL to forward to.").max(2048, "URLs have at most 2048 characters."),
  signing: z.enum(SIGNING_MODE_VALUES, "Choose how forwarded events are signed."),
  eventTypes: matchList("event type"),
  verificationMethods: matchList("verification method"),
  // Standard Webhooks only: the server refuses it with service signing (lib/destinations/verdict.ts).
  includeUnverified: z.boolean().default(false),
  maxPerSecond: maxPerSecond.optional(),
});
export type CreateDestinationInput = z.input<typeof createDestinationSchema>;

export const destinationIdSchema = z.object({ connectionId: z.uuid(), destinationId: z.uuid() });
export type DestinationIdInput = z.infer<typeof destinationIdSchema>;

export const setDestinationEnabledSchema = destinationIdSchema.extend({ enabled: z.boolean() });
export type SetDestinationEnabledInput = z.infer<typeof setDestinationEnabledSchema>;

/** A new cap on a destination's deliveries per second (null or empty: none). */
export const setDestinationRateSchema = destinationIdSchema.extend({ maxPerSecond });
export type SetDestinationRateInput = z.input<typeof setDestinationRateSchema>;

/** A replay: the log's filters (its query string) to one destination of the connection. */
export const replayInputSchema = z.object({
  connectionId: z.uuid(),
  destinationId: z.uuid(),
  filters: z.string().max(4096),
});
export type ReplayInput = z.infer<typeof replayInputSchema>;

export const replayIdSchema = z.object({ replayId: z.uuid() });
export type ReplayIdInput = z.infer<typeof replayIdSchema>;

/** Send one event to one destination again. */
export const resendInputSchema = z.object({
  connectionId: z.uuid(),
  destinationId: z.uuid(),
  eventId: z.string().min(1).max(200),
});
export type ResendInput = z.infer<typeof resendInputSchema>;
