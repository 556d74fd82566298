import "server-only";
import crypto from "node:crypto";
import { env } from "@/lib/env";

/**
 * AES-256-GCM envelope for keys stored in the database.
 * Format: v1.<keyId>.<iv>.<tag>.<ciphertext> (base64url parts). The key id (first 8 hex
 * characters of the key's SHA-256) says which key sealed it, so keys can be rotated.
 */
type Keyring = { current: { id: string; key: Buffer }; all: Map<string, Buffer> };

function keyId(key: Buffer): string {
  return crypto.createHash("sha256").update(key).digest("hex").slice(0, 8);
}

export function makeKeyring(currentBase64: string, previousBase64: readonly string[] = []): Keyring {
  const current = Buffer.from(currentBase64, "base64");
  const all = new Map<string, Buffer>();
  for (const k of [currentBase64, ...previousBase64]) {
    const key = Buffer.from(k, "base64");
    all.set(keyId(key), key);
  }
  return { current: { id: keyId(current), key: current }, all };
}

function keyringFromEnv(): Keyring {
  const e = env();
  return makeKeyring(e.CONSOLE_ENCRYPTION_KEY, e.CONSOLE_PREVIOUS_ENCRYPTION_KEYS);
}

export class SecretDecryptionError extends Error {
  override name = "SecretDecryptionError";
}

export function encryptSecret(plaintext: string, keyring: Keyring = keyringFromEnv()): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", keyring.current.key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString("base64url"));
  return ["v1", keyring.current.id, ...parts].join(".");
}

export function decryptSecret(sealed: string, keyring: Keyring = keyringFromEnv()): string {
  const [version, id, iv, tag, ciphertext] = sealed.split(".");
  if (version !== "v1" || !id || !iv || !tag || ciphertext === undefined) {
    throw new SecretDecryptionError("Stored secret has an unknown format.");
  }
  const key = keyring.all.get(id);
  if (!key) {
    throw new SecretDecryptionError(
      `Stored secret was sealed with key ${id}, which is neither CONSOLE_ENCRYPTION_KEY nor in CONSOLE_PREVIOUS_ENCRYPTION_KEYS.`,
    );
  }
  try {
    const decipher = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretDecryptionError("Stored secret failed its integrity check.");
  }
}

/** True when the secret was sealed with an older key and should be re-encrypted. */
export function needsRotation(sealed: string, keyring: Keyring = keyringFromEnv()): boolean {
  return sealed.split(".")[1] !== keyring.current.id;
}

/** What the UI may show of a key: its last four characters. */
export function fingerprint(secret: string): string {
  return secret.slice(-4);
}
