import "server-only";

import { and, eq, inArray } from "drizzle-orm";

import { recordAudit, type AuditActor } from "@/lib/audit/audit";
import type { ActionResult } from "@/lib/call-action";
import { newWebhookToken } from "@/lib/connections/connections";
import { getDb } from "@/lib/db";
import { connections, connectionSecrets } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";
import { decryptSecret, SecretDecryptionError, type SecretDecryptionReason } from "@/lib/secrets";

import { forgetReceiver } from "./receivers";
import { regenerateWebhookUrlSchema, type RegenerateWebhookUrlInput } from "./schemas";

/**
 * The URL the tenant's webhook settings should point at (the receiver: POST /api/webhooks/{token}).
 * The token is a secret of its own: shown to admins and the CLI only.
 */
export async function webhookUrlFor(connectionId: string): Promise<string | undefined> {
  const token = await readWebhookToken(connectionId);
  if (!token) return undefined;
  const origin = (env().CONSOLE_PUBLIC_URL ?? env().NEXTAUTH_URL).replace(/\/+$/, "");
  return `${origin}/api/webhooks/${token}`;
}

/**
 * The connection's webhook URL token, decrypted. Server-only. Throws SecretDecryptionError when the
 * stored value is not bound to this connection's token (say, a key's ciphertext copied into the column).
 */
export async function readWebhookToken(connectionId: string): Promise<string | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({ sealed: connections.webhookTokenCiphertext })
    .from(connections)
    .where(eq(connections.id, connectionId))
    .limit(1);
  return row ? decryptSecret(row.sealed, { connectionId, kind: "webhook_token" }) : undefined;
}

/** `url` is null when the stored token cannot be read; `unreadable` then says why and what to do. */
export type WebhookReceiverInfo = { connectionName: string; signed: boolean } & (
  { url: string; unreadable?: undefined } | { url: null; unreadable: string }
);

const unreadableMessages: Record<SecretDecryptionReason, string> = {
  mismatch: "The stored webhook URL cannot be read: it is not bound to this connection. Regenerate it.",
  unbound:
    "The stored webhook URL was saved before URLs were bound to their connection. Run `npm run secrets -- rotate` on the server, or regenerate it.",
  unknown_key:
    "The stored webhook URL was encrypted with a key this console does not have (see CONSOLE_PREVIOUS_ENCRYPTION_KEYS). Restore the key, or regenerate the URL.",
  format: "The stored webhook URL cannot be read: it is not in a format this console knows. Regenerate it.",
};

/**
 * What the connection page's webhook card shows. Undefined when the connection does not exist.
 * A token that cannot be read is reported, never shown: the page stays usable so it can be regenerated.
 */
export async function webhookReceiverInfo(connectionId: string): Promise<WebhookReceiverInfo | undefined> {
  const db = await getDb();
  const [connection] = await db
    .select({ name: connections.name })
    .from(connections)
    .where(eq(connections.id, connectionId))
    .limit(1);
  if (!connection) return undefined;
  const url = await webhookUrlFor(connectionId).catch((error: unknown) => {
    if (!(error instanceof SecretDecryptionError)) throw error;
    logger.warn("stored webhook URL cannot be read", { connectionId, reason: error.reason });
    return error;
  });
  if (url === undefined) return undefined;
  const keys = await db
    .select({ kind: connectionSecrets.kind })
    .from(connectionSecrets)
    .where(
      and(
        eq(connectionSecrets.connectionId, connectionId),
        inArray(connectionSecrets.kind, ["server", "server_secondary"]),
      ),
    );
  const signed = keys.length > 0;
  if (url instanceof SecretDecryptionError)
    return { connectionName: connection.name, signed, url: null, unreadable: unreadableMessages[url.reason] };
  return { connectionName: connection.name, signed, url };
}

/** Replaces the token: the old URL stops working at once (its hash no longer matches any connection). */
export async function regenerateWebhookUrl(
  actor: AuditActor,
  input: RegenerateWebhookUrlInput,
): Promise<ActionResult<{ url: string }>> {
  const parsed = regenerateWebhookUrlSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "Invalid input." };
  const db = await getDb();
  const [connection] = await db
    .select({ id: connections.id, name: connections.name })
    .from(connections)
    .where(eq(connections.id, parsed.data.connectionId))
    .limit(1);
  if (!connection) return { ok: false, error: "This connection no longer exists." };
  if (parsed.data.confirmName !== connection.name)
    return { ok: false, error: "The name typed does not match the connection's name." };
  const token = newWebhookToken(connection.id);
  await db.transaction(async (tx) => {
    await tx
      .update(connections)
      .set({
        webhookTokenHash: token.hash,
        webhookTokenCiphertext: token.ciphertext,
        updatedAt: new Date(),
        updatedBy: actor.id,
      })
      .where(eq(connections.id, connection.id));
    await recordAudit({ actor, action: "webhook.url_regenerated", outcome: "success", connection }, tx);
  });
  forgetReceiver(connection.id);
  const url = await webhookUrlFor(connection.id);
  return url ? { ok: true, url } : { ok: false, error: "This connection no longer exists." };
}
