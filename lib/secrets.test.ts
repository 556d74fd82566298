import { describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret, fingerprint, makeKeyring, needsRotation, SecretDecryptionError } from "./secrets";

const k1 = Buffer.alloc(32, 1).toString("base64");
const k2 = Buffer.alloc(32, 2).toString("base64");

describe("secrets", () => {
  it("round-trips and never contains the plaintext", () => {
    const ring = makeKeyring(k1);
    const sealed = encryptSecret("sk_live_super_secret", ring);
    expect(sealed).not.toContain("sk_live_super_secret");
    expect(sealed).not.toContain(Buffer.from("sk_live_super_secret").toString("base64"));
    expect(decryptSecret(sealed, ring)).toBe("sk_live_super_secret");
  });

  it("uses a fresh IV each time", () => {
    const ring = makeKeyring(k1);
    expect(encryptSecret("same", ring)).not.toBe(encryptSecret("same", ring));
  });

  it("decrypts with a previous key after rotation and flags it for re-encryption", () => {
    const sealedWithOld = encryptSecret("abc", makeKeyring(k1));
    const rotated = makeKeyring(k2, [k1]);
    expect(needsRotation(sealedWithOld, rotated)).toBe(true);
    expect(decryptSecret(sealedWithOld, rotated)).toBe("abc");
    const resealed = encryptSecret("abc", rotated);
    expect(needsRotation(resealed, rotated)).toBe(false);
    expect(decryptSecret(resealed, makeKeyring(k2))).toBe("abc");
  });

  it("refuses an unknown key id and a tampered ciphertext", () => {
    const sealed = encryptSecret("abc", makeKeyring(k1));
    expect(() => decryptSecret(sealed, makeKeyring(k2))).toThrow(SecretDecryptionError);
    const parts = sealed.split(".");
    parts[4] = Buffer.from("xyz").toString("base64url");
    expect(() => decryptSecret(parts.join("."), makeKeyring(k1))).toThrow(/integrity/);
  });

  it("fingerprints with the last four characters", () => {
    expect(fingerprint("sk_1234567890abcd")).toBe("abcd");
  });
});
