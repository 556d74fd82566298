import { z } from "zod";

import {
  ALL_CONNECTIONS,
  DEFAULT_EVENT_TYPE,
  DEFAULT_PAGE_SIZE,
  DELAY_BUCKET_VALUES,
  MAX_PAGE_SIZE,
  RECEIVED_PRESET_VALUES,
  TEST_EVENT_FILTER_VALUES,
  TEST_EVENT_ID_PREFIX,
} from "./constants";
import { REJECTION_REASON_VALUES } from "./types";

/**
 * Every zod schema of the webhooks feature, client-safe: the log's filters, the events the receiver
 * takes, and the inputs of its actions. A client component imports only types from here (the filter
 * bar's vocabulary is ./constants, free of zod).
 */

// The log's filters, as they appear in the URL (page) and the query string (API). Every message is said to a person.
const optionalText = z.string().trim().max(256, { error: "must be at most 256 characters" }).optional();
/** Method and platform are upper-case enum values in the spec; "push" finds PUSH. */
const optionalEnumText = optionalText.transform((v) => v?.toUpperCase());
const optionalTime = z.iso
  .datetime({ offset: true, error: "must be an ISO 8601 time, e.g. 2026-01-31T12:00:00Z" })
  .optional();
const wholeNumber = { error: `must be a whole number from 1 to ${MAX_PAGE_SIZE}` };
const pageFields = {
  cursor: z.string().max(200, { error: "not a page of this log" }).optional(),
  limit: z.coerce
    .number(wholeNumber)
    .int(wholeNumber)
    .min(1, wholeNumber)
    .max(MAX_PAGE_SIZE, wholeNumber)
    .default(DEFAULT_PAGE_SIZE),
};
const notAConnection = { error: "must be a connection's id, or all" };
const connectionFilter = z
  .union([z.uuid(notAConnection), z.literal(ALL_CONNECTIONS, notAConnection)], notAConnection)
  .optional();
const receivedPreset = z
  .enum(RECEIVED_PRESET_VALUES, { error: `must be one of ${RECEIVED_PRESET_VALUES.join(", ")}` })
  .optional();

export const eventFiltersSchema = z.object({
  connectionId: connectionFilter,
  type: z
    .string()
    .trim()
    .min(1, { error: "must not be empty" })
    .max(200, { error: "must be at most 200 characters" })
    .default(DEFAULT_EVENT_TYPE),
  verificationMethod: optionalEnumText,
  devicePlatform: optionalEnumText,
  userId: optionalText,
  userIdMatch: z.enum(["exact", "prefix"], { error: "must be exact or prefix" }).default("exact"),
  userAuthenticatorId: optionalText,
  received: receivedPreset,
  receivedFrom: optionalTime,
  receivedTo: optionalTime,
  expiresFrom: optionalTime,
  expiresTo: optionalTime,
  /** Absent: real and test events alike (test events carry a badge). */
  test: z.enum(TEST_EVENT_FILTER_VALUES, { error: `must be one of ${TEST_EVENT_FILTER_VALUES.join(", ")}` }).optional(),
  /**
   * First received − expiresAt, in one of the overview histogram's buckets; an event without expiresAt never
   * matches.
   */
  delay: z.enum(DELAY_BUCKET_VALUES, { error: `must be one of ${DELAY_BUCKET_VALUES.join(", ")}` }).optional(),
  ...pageFields,
});

export const rejectionFiltersSchema = z.object({
  connectionId: connectionFilter,
  reason: z.enum(REJECTION_REASON_VALUES, { error: `must be one of ${REJECTION_REASON_VALUES.join(", ")}` }).optional(),
  received: receivedPreset,
  receivedFrom: optionalTime,
  receivedTo: optionalTime,
  ...pageFields,
});

export type EventFilters = z.infer<typeof eventFiltersSchema>;
export type RejectionFilters = z.infer<typeof rejectionFiltersSchema>;

/**
 * An event's id in an API path (`/api/webhook-events/{id}`): its row number, as digits (a 16th would pass
 * JavaScript's safe integers).
 */
export const eventIdParamSchema = z.string().regex(/^\d{1,15}$/, { error: "must be a positive integer" });

/** What the exports write: CSV (the default) or one JSON object a line. */
export const EXPORT_FORMAT_VALUES = ["csv", "ndjson"] as const;
export const exportFormatSchema = z.enum(EXPORT_FORMAT_VALUES, { error: "must be csv or ndjson" });

/** `?event=` / `?rejection=`: the row whose detail drawer a link opens. */
export const openRowSchema = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

// The events the receiver takes: spec 2.4 and 6.1.

// A time the console can store and read back unchanged: PostgreSQL stores years 1 to 9999 in ISO form and the
// drivers read a year below 100 back as 19xx or 20xx, so anything else is refused rather than changed or lost.
const EARLIEST_STORABLE = Date.parse("0100-01-01T00:00:00.000Z");
const LATEST_STORABLE = Date.parse("9999-12-31T23:59:59.999Z");
const isoTime = z.iso.datetime({ offset: true }).refine((value) => {
  const instant = Date.parse(value);
  return instant >= EARLIEST_STORABLE && instant <= LATEST_STORABLE;
}, "must be a time in the years 0100 to 9999 (UTC)");

// A text column cannot hold NUL, and a lone UTF-16 surrogate (`"\ud800"` in JSON) cannot be encoded as
// UTF-8: the driver would store U+FFFD instead, so the stored value would not be the one sent.
const UNSTORABLE_CHARACTER = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const storable = (text: z.ZodString) =>
  text.refine(
    (value) => !UNSTORABLE_CHARACTER.test(value),
    "must not contain NUL or an unpaired surrogate (\\u0000, \\ud800)",
  );
const text = () => storable(z.string());
const requiredText = () => storable(z.string().min(1));

// The service's ids are UUIDs; the console's own test events (lib/webhooks/test-event.ts) put
// TEST_EVENT_ID_PREFIX before one, inside the signed body, so the receiver can mark them as tests.
const uuid = z.guid();
const eventId = z
  .string()
  .refine(
    (value) =>
      uuid.safeParse(value.startsWith(TEST_EVENT_ID_PREFIX) ? value.slice(TEST_EVENT_ID_PREFIX.length) : value).success,
    "must be a UUID",
  );

export const webhookEnvelopeSchema = z.object({
  version: z.number().int(),
  id: eventId,
  source: requiredText(),
  time: isoTime,
  tenantId: z.guid(),
  type: storable(z.string().min(1).max(200)),
  data: z.record(z.string(), z.unknown()),
});

export const authenticatorExpiredDataSchema = z.object({
  userId: requiredText(),
  verificationMethod: requiredText(),
  createdAt: isoTime,
  expiresAt: isoTime,
  userAuthenticatorId: requiredText(),
  deviceName: text().optional(),
  devicePlatform: text().optional(),
  email: text().optional(),
  phoneNumber: text().optional(),
  credentialId: text().optional(),
  aaguid: text().optional(),
  credentialName: text().optional(),
});

export type WebhookEnvelope = z.infer<typeof webhookEnvelopeSchema>;
export type AuthenticatorExpiredData = z.infer<typeof authenticatorExpiredDataSchema>;

/** What a console's receiver answers besides 200 (lib/webhooks/errors.ts), as "Send a test event" reads it. */
export const receiverErrorSchema = z.object({ error: z.string().max(100), errorDescription: z.string().max(1000) });

// The actions' inputs, checked again on the server.

/** The typed confirmation of a webhook URL regeneration. */
export const regenerateWebhookUrlSchema = z.object({
  connectionId: z.uuid(),
  confirmName: z.string().min(1, "Type the connection's name to confirm."),
});
export type RegenerateWebhookUrlInput = z.infer<typeof regenerateWebhookUrlSchema>;

export const sendTestEventSchema = z.object({ connectionId: z.uuid() });
export type SendTestEventInput = z.infer<typeof sendTestEventSchema>;
