import "server-only";
import { eq, and } from "drizzle-orm";
import { getDb } from "@/lib/db";
import { connections, connectionSecrets } from "@/lib/db/schema";
import { decryptSecret, encryptSecret, makeKeyring, needsRotation } from "@/lib/secrets";
import { env } from "@/lib/env";

type Keyring = ReturnType<typeof makeKeyring>;

function keyringFromEnv(): Keyring {
  const e = env();
  return makeKeyring(e.CONSOLE_ENCRYPTION_KEY, e.CONSOLE_PREVIOUS_ENCRYPTION_KEYS);
}

/**
 * Re-encrypts every stored key and webhook token sealed with an older CONSOLE_ENCRYPTION_KEY under
 * the current one. Idempotent: values already under the current key are left alone. Each value is
 * rewritten only if it still holds the ciphertext that was read, so a concurrent edit wins.
 */
export async function rotateStoredSecrets(keyring: Keyring = keyringFromEnv()): Promise<{ reencrypted: number; current: number }> {
  const db = await getDb();
  let reencrypted = 0;
  let current = 0;
  const secrets = await db.select().from(connectionSecrets);
  for (const s of secrets) {
    if (!needsRotation(s.ciphertext, keyring)) {
      current++;
      continue;
    }
    const resealed = encryptSecret(decryptSecret(s.ciphertext, keyring), keyring);
    await db
      .update(connectionSecrets)
      .set({ ciphertext: resealed })
      .where(and(eq(connectionSecrets.connectionId, s.connectionId), eq(connectionSecrets.kind, s.kind), eq(connectionSecrets.ciphertext, s.ciphertext)));
    reencrypted++;
  }
  const tokens = await db.select({ id: connections.id, sealed: connections.webhookTokenCiphertext }).from(connections);
  for (const t of tokens) {
    if (!needsRotation(t.sealed, keyring)) {
      current++;
      continue;
    }
    const resealed = encryptSecret(decryptSecret(t.sealed, keyring), keyring);
    await db
      .update(connections)
      .set({ webhookTokenCiphertext: resealed })
      .where(and(eq(connections.id, t.id), eq(connections.webhookTokenCiphertext, t.sealed)));
    reencrypted++;
  }
  return { reencrypted, current };
}
