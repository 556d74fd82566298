import "server-only";

import crypto from "node:crypto";

import { z } from "zod";

import { secretKindEnum } from "@/lib/db/schema";
import { env } from "@/lib/env";

/**
 * AES-256-GCM envelope for keys stored in the database: v2.<keyId>.<iv>.<tag>.<ciphertext> (base64url; the key id
 * is 8 hex characters of the key's SHA-256, for rotation), bound to its row and purpose by associated data so that a
 * ciphertext copied to another column fails. v1 values are refused here; rotate.ts re-binds them.
 */
type Keyring = { current: { id: string; key: Buffer }; all: Map<string, Buffer> };

export const secretPurposes = [
  ...secretKindEnum.enumValues,
  "webhook_token",
  "destination_secret",
  "destination_previous_secret",
] as const;

/**
 * Where a value is stored: a connection's key, webhook token or destination secret, or a console-wide alert notice
 * target's secret. Two strict shapes, never a made-up "console" connection id or an optional connectionId, so a
 * binding that forgot its connection cannot pass for a console-wide one (whose associated data says `console`).
 */
const connectionBindingSchema = z.strictObject({
  // A UUID (the connections.id column) never contains the "/" of the associated data.
  connectionId: z.guid(),
  kind: z.enum(secretPurposes),
  destinationId: z.guid().optional(),
});
const consoleBindingSchema = z.strictObject({ kind: z.literal("alert_target_secret"), targetId: z.guid() });
export const secretBindingSchema = z.union([connectionBindingSchema, consoleBindingSchema]);
export type SecretBinding = z.infer<typeof secretBindingSchema>;

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

export function keyringFromEnv(): Keyring {
  const e = env();
  return makeKeyring(e.CONSOLE_ENCRYPTION_KEY, e.CONSOLE_PREVIOUS_ENCRYPTION_KEYS);
}

/**
 * Why a stored value cannot be used, so a page can say what to do: `mismatch` is a value bound to
 * another row or purpose (or altered), `unbound` a v1 value awaiting `npm run secrets -- rotate`.
 * The message never carries the plaintext or the ciphertext.
 */
export type SecretDecryptionReason = "format" | "unknown_key" | "unbound" | "mismatch";

export class SecretDecryptionError extends Error {
  override name = "SecretDecryptionError";
  constructor(
    readonly reason: SecretDecryptionReason,
    message: string,
  ) {
    super(message);
  }
}

function associatedData(binding: SecretBinding): Buffer {
  const parsed = secretBindingSchema.parse(binding);
  if (!("connectionId" in parsed))
    return Buffer.from(`tenant-console/v2/console/${parsed.kind}/${parsed.targetId.toLowerCase()}`, "utf8");
  const { connectionId, kind, destinationId } = parsed;
  const destination = destinationId ? `/${destinationId.toLowerCase()}` : "";
  return Buffer.from(`tenant-console/v2/${connectionId.toLowerCase()}/${kind}${destination}`, "utf8");
}

function label(binding: SecretBinding): string {
  if (!("connectionId" in binding)) return `the ${binding.kind} secret of alert notice target ${binding.targetId}`;
  const destination = binding.destinationId ? ` of destination ${binding.destinationId}` : "";
  return `the ${binding.kind} secret${destination} of connection ${binding.connectionId}`;
}

/** What a value is bound to, in the words of a refusal: its connection, or for a console-wide value its row. */
const boundTo = (binding: SecretBinding) => ("connectionId" in binding ? "connection" : "notice target");

export function encryptSecret(plaintext: string, binding: SecretBinding, keyring: Keyring = keyringFromEnv()): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", keyring.current.key, iv);
  cipher.setAAD(associatedData(binding));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString("base64url"));
  return ["v2", keyring.current.id, ...parts].join(".");
}

export function decryptSecret(sealed: string, binding: SecretBinding, keyring: Keyring = keyringFromEnv()): string {
  const envelope = parse(sealed, binding);
  if (envelope.version === "v1") {
    throw new SecretDecryptionError(
      "unbound",
      `Stored secret (${label(binding)}) predates binding to its ${boundTo(binding)} and purpose; run \`npm run secrets -- rotate\` to re-bind it.`,
    );
  }
  return open(envelope, keyring, binding);
}

/** True when the value is v1 (unbound) or was sealed with an older key, and should be re-encrypted. */
export function needsRotation(sealed: string, keyring: Keyring = keyringFromEnv()): boolean {
  const [version, id] = sealed.split(".");
  return version !== "v2" || id !== keyring.current.id;
}

/**
 * Re-seals a stored value under the current key, bound to the row it is stored in. The one place a
 * v1 value is opened: re-binding is the upgrade (rotate.ts), never a way to read one. A v2 value must
 * already be bound to `binding`, so rotation cannot launder a value copied from another row.
 */
export function resealSecret(sealed: string, binding: SecretBinding, keyring: Keyring = keyringFromEnv()): string {
  const envelope = parse(sealed, binding);
  return encryptSecret(open(envelope, keyring, envelope.version === "v2" ? binding : undefined), binding, keyring);
}

type Envelope = { version: "v1" | "v2"; id: string; iv: string; tag: string; ciphertext: string };

function parse(sealed: string, binding: SecretBinding): Envelope {
  const [version, id, iv, tag, ciphertext, ...rest] = sealed.split(".");
  if ((version !== "v1" && version !== "v2") || !id || !iv || !tag || ciphertext === undefined || rest.length > 0) {
    throw new SecretDecryptionError("format", `Stored secret (${label(binding)}) has an unknown format.`);
  }
  return { version, id, iv, tag, ciphertext };
}

function open(envelope: Envelope, keyring: Keyring, binding: SecretBinding | undefined): string {
  const key = keyring.all.get(envelope.id);
  if (!key) {
    throw new SecretDecryptionError(
      "unknown_key",
      `Stored secret was sealed with key ${envelope.id}, which is neither CONSOLE_ENCRYPTION_KEY nor in CONSOLE_PREVIOUS_ENCRYPTION_KEYS.`,
    );
  }
  // Computed outside the try: a malformed binding is the caller's bug, not the value's.
  const aad = binding ? associatedData(binding) : undefined;
  try {
    const decipher = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(envelope.iv, "base64url"));
    if (aad) decipher.setAAD(aad);
    decipher.setAuthTag(Buffer.from(envelope.tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(envelope.ciphertext, "base64url")), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    // GCM cannot tell a value bound elsewhere from an altered one: both fail the tag.
    throw new SecretDecryptionError(
      "mismatch",
      binding
        ? `Stored secret failed its integrity check: it is not bound to this ${boundTo(binding)} and purpose (${label(binding)}), or it was altered.`
        : "Stored secret failed its integrity check.",
    );
  }
}

/** A new Standard Webhooks signing secret: `whsec_` and 24 random bytes in base64 (the scheme's own format). */
export const newSigningSecret = () => `whsec_${crypto.randomBytes(24).toString("base64")}`;

/** What the UI may show of a key: its last four characters. */
export function fingerprint(secret: string): string {
  return secret.slice(-4);
}
