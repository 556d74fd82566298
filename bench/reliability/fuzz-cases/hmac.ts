/** Signatures (SERVICE-FACTS): base64 without padding of HMAC-SHA256(key, `${t}.${rawBody}`). */
import crypto from "node:crypto";

export function hmacSignature(key: string, t: number | string, body: Buffer): string {
  return crypto.createHmac("sha256", key).update(`${t}.`).update(body).digest("base64").replace(/=+$/, "");
}

/** Builds the X-Signature-V2 value(s) at send time: one string per header line (two = a duplicated header). */
export type Signer = (body: Buffer, t: number, keys: readonly string[]) => string[];

export const WRONG_KEY = "fuzz_not_a_server_key_00000000000000000";

export function signWith(order: readonly number[]): Signer {
  return (body, t, keys) => [[`t=${t}`, ...order.map((k) => `v2=${hmacSignature(keys[k]!, t, body)}`)].join(",")];
}
