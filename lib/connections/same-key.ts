import "server-only";

import { createHash, timingSafeEqual } from "node:crypto";

import { decryptSecret, SecretDecryptionError } from "@/lib/secrets";
import type { Region } from "@/lib/service/regions";

import { listSealedManagementKeys } from "./repository";

const digest = (key: string) => createHash("sha256").update(key, "utf8").digest();

/**
 * The connection (other than `exceptId`) that already holds `key` as its management key in `region`: each stored key
 * of the region is decrypted in memory and compared as a SHA-256 digest in constant time; only the other's id and
 * name are returned. A key that cannot be decrypted is skipped (its own page asks for it again).
 */
export async function findConnectionWithSameKey(
  region: Region,
  key: string,
  exceptId?: string,
): Promise<{ id: string; name: string } | undefined> {
  const wanted = digest(key);
  for (const row of await listSealedManagementKeys(region)) {
    if (row.id === exceptId) continue;
    let stored: string;
    try {
      stored = decryptSecret(row.ciphertext, { connectionId: row.id, kind: "management" });
    } catch (error) {
      if (error instanceof SecretDecryptionError) continue;
      throw error;
    }
    if (timingSafeEqual(digest(stored), wanted)) return { id: row.id, name: row.name };
  }
  return undefined;
}
