import "server-only";

import crypto from "node:crypto";

import { keyringFromEnv } from "@/lib/secrets";

/**
 * The audit log's name for an erased user: HMAC-SHA256 of their id, keyed with a key derived (HKDF) from
 * CONSOLE_ENCRYPTION_KEY for this purpose alone. Without the key nobody can test a guessed id against it;
 * with it, the console can tell that a second request is for a user it erased before.
 */
const PURPOSE = "tenant-console/end-user-id-hash/v1";

/** HMAC-SHA256's own key size. */
const KEY_BYTES = 32;
/** How much of the hash an audit record shows: enough to tell users apart at a glance. */
const PSEUDONYM_HEX_DIGITS = 16;

const hashKey = (encryptionKey: Buffer) =>
  Buffer.from(crypto.hkdfSync("sha256", encryptionKey, Buffer.alloc(0), PURPOSE, KEY_BYTES));
const hmac = (encryptionKey: Buffer, userId: string) =>
  crypto.createHmac("sha256", hashKey(encryptionKey)).update(userId, "utf8").digest("hex");

/** The hash under the current key, and which key (its id, as sealed values name it). */
export function hashUserId(userId: string): { hash: string; keyId: string } {
  const { current } = keyringFromEnv();
  return { hash: hmac(current.key, userId), keyId: current.id };
}

/**
 * The hash under every key the console holds (CONSOLE_PREVIOUS_ENCRYPTION_KEYS too): an erasure recorded before a
 * rotation still matches.
 */
export function userIdHashes(userId: string): string[] {
  return [...keyringFromEnv().all.values()].map((key) => hmac(key, userId));
}

/** How an audit record names the user: the start of the hash. */
export const userPseudonym = (hash: string) => `user#${hash.slice(0, PSEUDONYM_HEX_DIGITS)}`;
