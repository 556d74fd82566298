import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db";
import { connections } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { decryptSecret } from "@/lib/secrets";

/**
 * The URL the tenant's webhook settings should point at (the receiver of issue 5 lives at
 * /api/webhooks/[token]). The token is a secret of its own: shown to admins and the CLI only.
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
