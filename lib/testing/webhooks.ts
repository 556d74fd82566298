/** Shared fixtures for the webhook tests and the bench (not a test file itself). */
import crypto from "node:crypto";

import { newWebhookToken } from "@/lib/connections/webhook-token";
import { getDb } from "@/lib/db";
import { connections, connectionSecrets } from "@/lib/db/schema";
import { encryptSecret, fingerprint } from "@/lib/secrets";
import { signatureHeader } from "@/lib/webhooks/signature";

export const TENANT_ID = "3f6c2a1e-8b4d-4c7a-9e21-5d0f7a9b1c01";

/** Inserts a connection directly (not through lib/connections' createConnection), with 0, 1 or 2 server keys. */
export async function insertTestConnection(
  name: string,
  serverKeys: readonly string[] = [],
): Promise<{ id: string; token: string }> {
  const db = await getDb();
  // The id is chosen here, not by the database, so the token is sealed for this row (lib/secrets.ts).
  const id = crypto.randomUUID();
  const webhookToken = newWebhookToken(id);
  await db.insert(connections).values({
    id,
    name,
    region: "us",
    webhookTokenHash: webhookToken.hash,
    webhookTokenCiphertext: webhookToken.ciphertext,
  });
  const kinds = ["server", "server_secondary"] as const;
  for (const [index, key] of serverKeys.entries()) {
    const kind = kinds[index]!;
    await db.insert(connectionSecrets).values({
      connectionId: id,
      kind,
      ciphertext: encryptSecret(key, { connectionId: id, kind }),
      last4: fingerprint(key),
    });
  }
  return { id, token: webhookToken.token };
}

export function expiredEvent(overrides: { id?: string; data?: Record<string, unknown>; [k: string]: unknown } = {}) {
  const { data, ...rest } = overrides;
  return {
    version: 1,
    id: crypto.randomUUID(),
    source: "https://authsignal.com",
    time: "2025-06-01T12:00:05.123Z",
    tenantId: TENANT_ID,
    type: "authenticator.expired",
    ...rest,
    data: {
      userId: "usr_alice",
      verificationMethod: "PUSH",
      createdAt: "2025-01-10T09:00:00.000Z",
      expiresAt: "2025-06-01T12:00:00.000Z",
      userAuthenticatorId: "ua_alice_push",
      deviceName: "Alice's iPhone",
      devicePlatform: "IOS",
      ...data,
    },
  };
}

export type PostOptions = {
  keys?: readonly string[];
  timestamp?: number;
  headers?: Record<string, string>;
  signature?: string | null;
};

/** A request as the service sends it: JSON, signed with every given key. */
export function webhookRequest(token: string, body: string | object, options: PostOptions = {}): Request {
  const raw = typeof body === "string" ? body : JSON.stringify(body);
  const t = options.timestamp ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.signature !== null) {
    const signature = options.signature ?? (options.keys?.length ? signatureHeader(raw, t, options.keys) : undefined);
    if (signature) headers["x-signature-v2"] = signature;
  }
  return new Request(`http://127.0.0.1:3000/api/webhooks/${token}`, {
    method: "POST",
    headers: { ...headers, ...options.headers },
    body: raw,
  });
}
