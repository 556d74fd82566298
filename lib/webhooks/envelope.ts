import type { z } from "zod";

import {
  authenticatorExpiredDataSchema,
  webhookEnvelopeSchema,
  type AuthenticatorExpiredData,
  type WebhookEnvelope,
} from "./schemas";

/** An event's envelope checked as the receiver takes it (spec 2.4 and 6.1). Client-safe (no server imports). */

export const AUTHENTICATOR_EXPIRED = "authenticator.expired";

export type EnvelopeCheck =
  { ok: true; envelope: WebhookEnvelope; data: Partial<AuthenticatorExpiredData> } | { ok: false; description: string };

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
