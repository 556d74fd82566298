import crypto from "node:crypto";

import { describe, expect, it } from "vitest";

import {
  decryptSecret,
  encryptSecret,
  fingerprint,
  makeKeyring,
  needsRotation,
  resealSecret,
  SecretDecryptionError,
  type SecretBinding,
} from "./secrets";

const k1 = Buffer.alloc(32, 1).toString("base64");
const k2 = Buffer.alloc(32, 2).toString("base64");
const connectionA = crypto.randomUUID();
const connectionB = crypto.randomUUID();
const managementA: SecretBinding = { connectionId: connectionA, kind: "management" };

/** What consoles before binding stored: the same envelope as v1, without associated data. */
function sealV1(plaintext: string, keyBase64: string): string {
  const key = Buffer.from(keyBase64, "base64");
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const id = crypto.createHash("sha256").update(key).digest("hex").slice(0, 8);
  return ["v1", id, ...[iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString("base64url"))].join(".");
}

function decryptionError(fn: () => unknown): SecretDecryptionError {
  try {
    fn();
  } catch (error) {
    if (error instanceof SecretDecryptionError) return error;
    throw error;
  }
  throw new Error("expected a SecretDecryptionError");
}

describe("secrets", () => {
  it("round-trips as v2 and never contains the plaintext", () => {
    const ring = makeKeyring(k1);
    const sealed = encryptSecret("sk_live_super_secret", managementA, ring);
    expect(sealed).toMatch(/^v2\./);
    expect(sealed).not.toContain("sk_live_super_secret");
    expect(sealed).not.toContain(Buffer.from("sk_live_super_secret").toString("base64"));
    expect(decryptSecret(sealed, managementA, ring)).toBe("sk_live_super_secret");
  });

  it("uses a fresh IV each time", () => {
    const ring = makeKeyring(k1);
    expect(encryptSecret("same", managementA, ring)).not.toBe(encryptSecret("same", managementA, ring));
  });

  it("binds a destination's secret to that destination: another destination of the same connection cannot read it", () => {
    const ring = makeKeyring(k1);
    const destinationA = "5d8f8a52-3c8e-4a55-9f0e-0b7e7d1a2b3c";
    const destinationB = "6e9f9b63-4d9f-4b66-8a1f-1c8f8e2b3c4d";
    const sealed = encryptSecret(
      "whsec_c2VjcmV0",
      { connectionId: connectionA, kind: "destination_secret", destinationId: destinationA },
      ring,
    );
    expect(
      decryptSecret(
        sealed,
        { connectionId: connectionA, kind: "destination_secret", destinationId: destinationA },
        ring,
      ),
    ).toBe("whsec_c2VjcmV0");
    for (const binding of [
      { connectionId: connectionA, kind: "destination_secret", destinationId: destinationB },
      { connectionId: connectionA, kind: "destination_previous_secret", destinationId: destinationA },
      { connectionId: connectionA, kind: "destination_secret" },
    ] satisfies SecretBinding[]) {
      expect(decryptionError(() => decryptSecret(sealed, binding, ring)).reason).toBe("mismatch");
    }
  });

  it("refuses a value under another connection or purpose, naming the binding and never the value", () => {
    const ring = makeKeyring(k1);
    const sealed = encryptSecret("sk_live_super_secret", { connectionId: connectionA, kind: "server" }, ring);
    const elsewhere: SecretBinding[] = [
      { connectionId: connectionA, kind: "webhook_token" },
      { connectionId: connectionA, kind: "management" },
      { connectionId: connectionA, kind: "server_secondary" },
      { connectionId: connectionB, kind: "server" },
    ];
    for (const binding of elsewhere) {
      const error = decryptionError(() => decryptSecret(sealed, binding, ring));
      expect(error.reason).toBe("mismatch");
      expect(error.message).toMatch(/not bound to this connection and purpose/);
      expect(error.message).not.toContain("sk_live_super_secret");
      expect(error.message).not.toContain(sealed.split(".")[4]);
    }
    // The id's case does not matter: Postgres answers UUIDs in lower case, a URL may not.
    expect(decryptSecret(sealed, { connectionId: connectionA.toUpperCase(), kind: "server" }, ring)).toBe(
      "sk_live_super_secret",
    );
  });

  it("refuses a binding that is not a connection id and a purpose", () => {
    const ring = makeKeyring(k1);
    expect(() => encryptSecret("x", { connectionId: "a/b", kind: "server" }, ring)).toThrow();
    expect(() => encryptSecret("x", { connectionId: connectionA, kind: "other" as "server" }, ring)).toThrow();
  });

  it("binds a notice target's secret to that target, apart from any connection", () => {
    const ring = makeKeyring(k1);
    const targetA = crypto.randomUUID();
    const sealed = encryptSecret("whsec_dGFyZ2V0", { kind: "alert_target_secret", targetId: targetA }, ring);
    expect(decryptSecret(sealed, { kind: "alert_target_secret", targetId: targetA.toUpperCase() }, ring)).toBe(
      "whsec_dGFyZ2V0",
    );
    const error = decryptionError(() =>
      decryptSecret(sealed, { kind: "alert_target_secret", targetId: crypto.randomUUID() }, ring),
    );
    expect(error).toMatchObject({
      reason: "mismatch",
      message: expect.stringMatching(/not bound to this notice target and purpose/),
    });
    // The same id as a connection's, or as a destination's, is another binding.
    for (const binding of [
      { connectionId: targetA, kind: "destination_secret" },
      { connectionId: targetA, kind: "destination_secret", destinationId: targetA },
    ] satisfies SecretBinding[]) {
      expect(decryptionError(() => decryptSecret(sealed, binding, ring)).reason).toBe("mismatch");
    }
  });

  it("refuses a binding that mixes the two shapes, or names a target's purpose without its target", () => {
    const ring = makeKeyring(k1);
    const id = crypto.randomUUID();
    for (const binding of [
      { connectionId: id, kind: "alert_target_secret" },
      { connectionId: id, kind: "alert_target_secret", targetId: id },
      { connectionId: id, kind: "server", targetId: id },
      { kind: "alert_target_secret" },
      { kind: "alert_target_secret", targetId: "a/b" },
      { kind: "server", targetId: id },
    ]) {
      expect(() => encryptSecret("x", binding as SecretBinding, ring), JSON.stringify(binding)).toThrow();
    }
  });

  it("decrypts with a previous key after rotation and flags it for re-encryption", () => {
    const sealedWithOld = encryptSecret("abc", managementA, makeKeyring(k1));
    const rotated = makeKeyring(k2, [k1]);
    expect(needsRotation(sealedWithOld, rotated)).toBe(true);
    expect(decryptSecret(sealedWithOld, managementA, rotated)).toBe("abc");
    const resealed = resealSecret(sealedWithOld, managementA, rotated);
    expect(needsRotation(resealed, rotated)).toBe(false);
    expect(decryptSecret(resealed, managementA, makeKeyring(k2))).toBe("abc");
  });

  it("refuses a v1 value until it is re-bound, and re-binds it to the row it is resealed for", () => {
    const ring = makeKeyring(k1);
    const legacy = sealV1("sk_legacy", k1);
    expect(needsRotation(legacy, ring)).toBe(true);
    const error = decryptionError(() => decryptSecret(legacy, managementA, ring));
    expect(error.reason).toBe("unbound");
    expect(error.message).toMatch(/npm run secrets -- rotate/);
    const bound = resealSecret(legacy, managementA, ring);
    expect(bound).toMatch(/^v2\./);
    expect(needsRotation(bound, ring)).toBe(false);
    expect(decryptSecret(bound, managementA, ring)).toBe("sk_legacy");
    expect(() => decryptSecret(bound, { connectionId: connectionB, kind: "management" }, ring)).toThrow(
      SecretDecryptionError,
    );
  });

  it("does not reseal a v2 value for a row it is not bound to", () => {
    const ring = makeKeyring(k2, [k1]);
    const sealed = encryptSecret(
      "sk_live_super_secret",
      { connectionId: connectionA, kind: "server" },
      makeKeyring(k1),
    );
    expect(
      decryptionError(() => resealSecret(sealed, { connectionId: connectionA, kind: "webhook_token" }, ring)).reason,
    ).toBe("mismatch");
  });

  it("refuses an unknown key id, a tampered ciphertext and an unknown format", () => {
    const sealed = encryptSecret("abc", managementA, makeKeyring(k1));
    expect(decryptionError(() => decryptSecret(sealed, managementA, makeKeyring(k2))).reason).toBe("unknown_key");
    const parts = sealed.split(".");
    parts[4] = Buffer.from("xyz").toString("base64url");
    expect(() => decryptSecret(parts.join("."), managementA, makeKeyring(k1))).toThrow(/integrity/);
    expect(decryptionError(() => decryptSecret("v3.abc", managementA, makeKeyring(k1))).reason).toBe("format");
  });

  it("fingerprints with the last four characters", () => {
    expect(fingerprint("sk_1234567890abcd")).toBe("abcd");
  });
});
