import { z } from "zod";
import { TEST_EVENT_ID_PREFIX } from "./constants";

/** Spec 2.4 and 6.1. Client-safe (no server imports) so the UI can share the types. */

// A time the console can store and read back unchanged: PostgreSQL stores years 1 to 9999 in ISO form
// (`0000-01-01` and `9999-12-31T23:59:59-23:59`, in year 10000 in UTC, would fail the insert), and the
// drivers read a year below 100 back as 19xx or 20xx. Refused here rather than changed or lost.
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
  text.refine((value) => !UNSTORABLE_CHARACTER.test(value), "must not contain NUL or an unpaired surrogate (\\u0000, \\ud800)");
const text = () => storable(z.string());
const requiredText = () => storable(z.string().min(1));

// The service's ids are UUIDs; the console's own test events (lib/webhooks/test-event.ts) put
// TEST_EVENT_ID_PREFIX before one, inside the signed body, so the receiver can mark them as tests.
const uuid = z.guid();
const eventId = z.string().refine((value) => uuid.safeParse(value.startsWith(TEST_EVENT_ID_PREFIX) ? value.slice(TEST_EVENT_ID_PREFIX.length) : value).success, "must be a UUID");

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

export const AUTHENTICATOR_EXPIRED = "authenticator.expired";

export type WebhookEnvelope = z.infer<typeof webhookEnvelopeSchema>;
export type AuthenticatorExpiredData = z.infer<typeof authenticatorExpiredDataSchema>;

export type EnvelopeCheck =
  | { ok: true; envelope: WebhookEnvelope; data: Partial<AuthenticatorExpiredData> }
  | { ok: false; description: string };

function describe(error: z.ZodError, prefix: string): string {
  const issue = error.issues[0];
  if (!issue) return "invalid envelope";
  const field = [prefix, ...issue.path.map(String)].filter(Boolean).join(".") || "(body)";
  return `${field}: ${issue.message}`;
}

/**
 * Validates the envelope, and the data of the kinds we know. Unknown kinds are accepted as they are
 * (the service may add kinds); their data is stored raw and no columns are filled.
 */
export function checkEnvelope(parsed: unknown): EnvelopeCheck {
  const envelope = webhookEnvelopeSchema.safeParse(parsed);
  if (!envelope.success) return { ok: false, description: describe(envelope.error, "") };
  if (envelope.data.type !== AUTHENTICATOR_EXPIRED) return { ok: true, envelope: envelope.data, data: {} };
  const data = authenticatorExpiredDataSchema.safeParse(envelope.data.data);
  if (!data.success) return { ok: false, description: describe(data.error, "data") };
  return { ok: true, envelope: envelope.data, data: data.data };
}
