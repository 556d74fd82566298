import { createHmac, randomUUID } from "node:crypto";

import type { ExpiredAuthenticator } from "./state";

export const WEBHOOK_SOURCE = "https://authsignal.com";

/** Optional spec 6.1 fields, copied only when the authenticator has them (email and phone unmasked). */
const OPTIONAL_DATA_FIELDS = [
  "deviceName",
  "devicePlatform",
  "email",
  "phoneNumber",
  "credentialId",
  "aaguid",
  "credentialName",
] as const;
const CREDENTIAL_FIELDS = new Set<string>(["credentialId", "aaguid", "credentialName"]);

export interface WebhookEvent {
  id: string;
  tenantId: string;
  /** The exact bytes sent on every attempt. */
  body: string;
}

export function buildExpiredEvent(
  { tenant, userId, authenticator }: ExpiredAuthenticator,
  nowIso: string,
): WebhookEvent {
  const data: Record<string, string> = {
    userId,
    verificationMethod: authenticator.verificationMethod,
    createdAt: authenticator.createdAt,
    expiresAt: new Date(authenticator.expiresAtMs ?? 0).toISOString(),
    userAuthenticatorId: authenticator.userAuthenticatorId,
  };
  for (const field of OPTIONAL_DATA_FIELDS) {
    const value = authenticator[field];
    // Spec 6.1: credential fields are for passkeys only, although a SECURITY_KEY may store them (seed.ts).
    if (CREDENTIAL_FIELDS.has(field) && authenticator.verificationMethod !== "PASSKEY") continue;
    if (value !== undefined) data[field] = value;
  }
  const id = randomUUID();
  const envelope = {
    version: 1,
    id,
    source: WEBHOOK_SOURCE,
    time: nowIso,
    tenantId: tenant.id,
    type: "authenticator.expired",
    data,
  };
  return { id, tenantId: tenant.id, body: JSON.stringify(envelope) };
}

/** `X-Signature-V2` value: `t=<unix s>,v2=<sig>` with one `v2=` per active server secret key. */
export function signatureHeader(rawBody: string, timestampSeconds: number, secretKeys: readonly string[]): string {
  const signatures = secretKeys.map((key) =>
    createHmac("sha256", key).update(`${timestampSeconds}.${rawBody}`).digest("base64").replace(/=+$/, ""),
  );
  return [`t=${timestampSeconds}`, ...signatures.map((signature) => `v2=${signature}`)].join(",");
}
