import "server-only";

import crypto from "node:crypto";

import { encryptSecret } from "@/lib/secrets";

/**
 * A connection's webhook URL token (/api/webhooks/{token}): 192 random bits, base64url, looked up by its SHA-256,
 * kept encrypted for display and bound to its connection (lib/secrets.ts); a connection not yet inserted takes its
 * id from `crypto.randomUUID()`, so the token is sealed for its row.
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
