import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { recordAudit, type AuditActor } from "@/lib/audit/audit";
import { getDb } from "@/lib/db";
import { connectionSecrets, connections } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { decryptSecret } from "@/lib/secrets";
import { regenerateWebhookUrlSchema, type RegenerateWebhookUrlInput } from "./schemas";
import { newWebhookToken } from "./token";
import type { ActionResult } from "@/lib/call-action";

/**
 * The URL the tenant's webhook settings should point at (the receiver lives at /api/webhooks/[token]).
 * The token is a secret of its own: shown to admins and the CLI only.
 */
export async function webhookUrlFor(connectionId: string): Promise<string | undefined> {
  const token = await readWebhookToken(connectionId);
  if (!token) return undefined;
  const origin = (env().CONSOLE_PUBLIC_URL ?? env().NEXTAUTH_URL).replace(/\/+$/, "");
  return `${origin}/api/webhooks/${token}`;
}

/** The connection's webhook URL token, decrypted. Server-only. */
export async function readWebhookToken(connectionId: string): Promise<string | undefined> {
  const db = await getDb();
  const [row] = await db.select({ sealed: connections.webhookTokenCiphertext }).from(connections).where(eq(connections.id, connectionId)).limit(1);
  return row ? decryptSecret(row.sealed) : undefined;
}

export type WebhookReceiverInfo = { connectionName: string; url: string; signed: boolean };

/** What the connection page's webhook card shows. Undefined when the connection does not exist. */
export async function webhookReceiverInfo(connectionId: string): Promise<WebhookReceiverInfo | undefined> {
  const db = await getDb();
  const [connection] = await db.select({ name: connections.name }).from(connections).where(eq(connections.id, connectionId)).limit(1);
  const url = connection ? await webhookUrlFor(connectionId) : undefined;
  if (!connection || !url) return undefined;
  const keys = await db
    .select({ kind: connectionSecrets.kind })
    .from(connectionSecrets)
    .where(and(eq(connectionSecrets.connectionId, connectionId), inArray(connectionSecrets.kind, ["server", "server_secondary"])));
  return { connectionName: connection.name, url, signed: keys.length > 0 };
}


/** Replaces the token: the old URL stops working at once (its hash no longer matches any connection). */
export async function regenerateWebhookUrl(
  actor: AuditActor,
  input: RegenerateWebhookUrlInput,
): Promise<ActionResult<{ url: string }>> {
  const parsed = regenerateWebhookUrlSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "Invalid input." };
  const db = await getDb();
  const [connection] = await db.select({ id: connections.id, name: connections.name }).from(connections).where(eq(connections.id, parsed.data.connectionId)).limit(1);
  if (!connection) return { ok: false, error: "This connection no longer exists." };
  if (parsed.data.confirmName !== connection.name) return { ok: false, error: "The name typed does not match the connection's name." };
  const token = newWebhookToken();
  await db.transaction(async (tx) => {
    await tx
      .update(connections)
      .set({ webhookTokenHash: token.hash, webhookTokenCiphertext: token.ciphertext, updatedAt: new Date(), updatedBy: actor.id })
      .where(eq(connections.id, connection.id));
    await recordAudit({ actor, action: "webhook.url_regenerated", outcome: "success", connection }, tx);
  });
  const url = await webhookUrlFor(connection.id);
  return url ? { ok: true, url } : { ok: false, error: "This connection no longer exists." };
}
