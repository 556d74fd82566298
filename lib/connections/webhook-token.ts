import "server-only";

import crypto from "node:crypto";

import { encryptSecret } from "@/lib/secrets";

/**
 * A connection's webhook URL token (lib/webhooks receives at /api/webhooks/{token}; the token is a
 * column of the connection's row): 192 random bits, base64url. Looked up by its SHA-256, kept encrypted for display,
 * bound to its connection (lib/secrets.ts). A connection not yet inserted takes its id from
 * `crypto.randomUUID()` and inserts it, so the token is sealed for the row it will live in.
 */
export function newWebhookToken(connectionId: string): { token: string; hash: string; ciphertext: string } {
  const token = crypto.randomBytes(24).toString("base64url");
  return {
    token,
    hash: hashWebhookToken(token),
    ciphertext: encryptSecret(token, { connectionId, kind: "webhook_token" }),
  };
}

export function hashWebhookToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}
