import { z } from "zod";

import { displayNameSchema } from "@/lib/display-name";

import {
  ATTEMPT_OUTCOMES,
  MAX_PER_SECOND_LIMIT,
  MAX_PREVIOUS_SECRET_HOURS,
  PREVIOUS_SECRET_HOURS,
  SIGNING_MODE_VALUES,
} from "./constants";

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

/**
 * An edit of a destination: only what is given changes; null clears a list (every type or method) or the cap.
 * The name and signing mode stay as they were (a new mode is a new destination, with a secret of its own).
 */
export const updateDestinationSchema = destinationIdSchema.extend({
  url: createDestinationSchema.shape.url.optional(),
  eventTypes: matchList("event type").nullable().optional(),
  verificationMethods: matchList("verification method").nullable().optional(),
  maxPerSecond: maxPerSecond.optional(),
});
export type UpdateDestinationInput = z.input<typeof updateDestinationSchema>;

const PREVIOUS_SECRET_WORDS = `The previous secret signs for a whole number of hours from 0 to ${MAX_PREVIOUS_SECRET_HOURS}.`;

/** A rotation: how long the secret it replaces still signs beside the new one (0: it stops at once). */
export const rotateDestinationSecretSchema = destinationIdSchema.extend({
  previousSecretHours: z.coerce
    .number(PREVIOUS_SECRET_WORDS)
    .int(PREVIOUS_SECRET_WORDS)
    .min(0, PREVIOUS_SECRET_WORDS)
    .max(MAX_PREVIOUS_SECRET_HOURS, PREVIOUS_SECRET_WORDS)
    .default(PREVIOUS_SECRET_HOURS),
});
export type RotateDestinationSecretInput = z.input<typeof rotateDestinationSecretSchema>;

/** A destination page's attempts: its outcome filter and the keyset cursor of the page after. */
export const attemptFiltersSchema = z.object({
  outcome: z.enum(ATTEMPT_OUTCOMES).optional().catch(undefined),
  /** The last attempt shown: its start (epoch ms) and id, "1764650000000-42". */
  before: z
    .string()
    .regex(/^\d{1,15}-\d{1,19}$/)
    .optional()
    .catch(undefined),
});
export type AttemptFilters = z.infer<typeof attemptFiltersSchema>;

// The API's bodies (lib/destinations/api-*.ts): the forms' schemas, strict, so a misspelt field is named.

/** GET /api/destinations: whose destinations. */
export const destinationListQuerySchema = z.object({ connectionId: z.uuid("must be a connection's id") }).strict();

/** POST /api/destinations: the form's fields; no event types or methods means every one. */
export const createDestinationApiSchema = createDestinationSchema
  .extend({
    eventTypes: createDestinationSchema.shape.eventTypes.default([]),
    verificationMethods: createDestinationSchema.shape.verificationMethods.default([]),
  })
  .strict();

/** PATCH /api/destinations/{id}: what changes (the page's edit, and on or off); a field left out stays as it is. */
export const updateDestinationApiSchema = updateDestinationSchema
  .omit({ connectionId: true, destinationId: true })
  .extend({ enabled: z.boolean("enabled is true or false.").optional() })
  .strict()
  .refine((body) => Object.values(body).some((value) => value !== undefined), "Name at least one field to change.");
export type UpdateDestinationApiInput = z.output<typeof updateDestinationApiSchema>;

/** The path's destination id. */
export const destinationPathSchema = z.object({ id: destinationIdSchema.shape.destinationId });

/** POST /api/replays (and its preview): the log's filters as GET /api/webhook-events takes them, to one destination. */
export const replayApiSchema = z
  .object({
    destinationId: destinationIdSchema.shape.destinationId,
    filters: z.record(z.string(), z.string().max(1024)).default({}),
  })
  .strict();

/** The path's replay id. */
export const replayPathSchema = z.object({ id: replayIdSchema.shape.replayId });

/** POST /api/webhook-events/{id}/forwards: the destination to send the event to again. */
export const resendApiSchema = z.object({ destinationId: destinationIdSchema.shape.destinationId }).strict();
