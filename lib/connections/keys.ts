import "server-only";

import { and, eq, inArray } from "drizzle-orm";

import { getDb } from "@/lib/db";
import { connectionSecrets } from "@/lib/db/schema";
import { decryptSecret } from "@/lib/secrets";

export type SecretKind = (typeof connectionSecrets.$inferSelect)["kind"];

/** The decrypted key of one kind for a connection, or undefined when none is stored. Server-only. */
export async function readConnectionSecret(connectionId: string, kind: SecretKind): Promise<string | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({ ciphertext: connectionSecrets.ciphertext })
    .from(connectionSecrets)
    .where(and(eq(connectionSecrets.connectionId, connectionId), eq(connectionSecrets.kind, kind)))
    .limit(1);
  return row ? decryptSecret(row.ciphertext, { connectionId, kind }) : undefined;
}

/** The server API secret keys in signature order: key 1 (current), then key 2 (the one being rotated out). */
export async function readServerKeys(connectionId: string): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ kind: connectionSecrets.kind, ciphertext: connectionSecrets.ciphertext })
    .from(connectionSecrets)
    .where(
      and(
        eq(connectionSecrets.connectionId, connectionId),
        inArray(connectionSecrets.kind, ["server", "server_secondary"]),
      ),
    );
  return (["server", "server_secondary"] as const)
    .map((kind) => rows.find((row) => row.kind === kind))
    .filter((row) => row !== undefined)
    .map((row) => decryptSecret(row.ciphertext, { connectionId, kind: row.kind }));
}
