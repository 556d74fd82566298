import { z } from "zod";

/** Spec 2.4 and 6.1. Client-safe (no server imports) so the UI can share the types. */
const isoTime = z.iso.datetime({ offset: true });

export const webhookEnvelopeSchema = z.object({
  version: z.number().int(),
  id: z.guid(),
  source: z.string().min(1),
  time: isoTime,
  tenantId: z.guid(),
  type: z.string().min(1).max(200),
  data: z.record(z.string(), z.unknown()),
});

export const authenticatorExpiredDataSchema = z.object({
  userId: z.string().min(1),
  verificationMethod: z.string().min(1),
  createdAt: isoTime,
  expiresAt: isoTime,
  userAuthenticatorId: z.string().min(1),
  deviceName: z.string().optional(),
  devicePlatform: z.string().optional(),
  email: z.string().optional(),
  phoneNumber: z.string().optional(),
  credentialId: z.string().optional(),
  aaguid: z.string().optional(),
  credentialName: z.string().optional(),
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
