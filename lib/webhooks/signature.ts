import "server-only";

import crypto from "node:crypto";

import { MISSING_SIGNATURE_DETAIL } from "./constants";

/** The public SDKs' default tolerance: a signature older (or further in the future) than this is refused. */
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

export type SignatureCheck =
  { ok: true; keyIndex: number } | { ok: false; reason: "bad_signature" | "stale_timestamp"; detail: string };

type ParsedHeader = { timestamp: number; signatures: string[] };

/**
 * Parses `t=<unix s>,v2=<sig>[,v2=<sig>]`: the header, or why it cannot be used. A request with two
 * X-Signature-V2 headers arrives joined (`t=1,v2=a, t=2,v2=b`); which timestamp belongs to which signature
 * is then lost, so a second `t=` makes the header unusable whatever the order (never "the last one wins").
 */
export function parseSignatureHeader(header: string | null): ParsedHeader | { problem: string } {
  if (!header) return { problem: MISSING_SIGNATURE_DETAIL };
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === "t" && timestamp !== undefined)
      return { problem: "X-Signature-V2 holds more than one timestamp (was the header sent twice?)" };
    if (name === "t" && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (name === "v2" && value) signatures.push(value);
  }
  if (timestamp === undefined || signatures.length === 0) return { problem: "X-Signature-V2 is malformed" };
  return { timestamp, signatures };
}

/** HMAC-SHA256 over `t + "." + rawBody`, standard base64 without padding (SERVICE-FACTS). */
export function computeSignature(rawBody: Buffer | string, timestampSeconds: number, secretKey: string): string {
  return crypto
    .createHmac("sha256", secretKey)
    .update(`${timestampSeconds}.`)
    .update(rawBody)
    .digest("base64")
    .replace(/=+$/, "");
}

/** The header a sender builds: one `v2=` per active key. Used by tests, seeds and the bench. */
export function signatureHeader(
  rawBody: Buffer | string,
  timestampSeconds: number,
  secretKeys: readonly string[],
): string {
  return [
    `t=${timestampSeconds}`,
    ...secretKeys.map((k) => `v2=${computeSignature(rawBody, timestampSeconds, k)}`),
  ].join(",");
}

function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  // Length is not secret (every valid signature has the same length); content is compared in constant time.
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

/**
 * Verifies `X-Signature-V2` over the raw bytes: accepted when any `v2=` entry matches any key.
 * `keys` are in order (key 1, key 2); the index of the matching key is returned.
 * The timestamp is checked after the signature so that "stale" is only said of authentic requests.
 */
export function verifyWebhookSignature(
  rawBody: Buffer,
  header: string | null,
  keys: readonly string[],
  nowSeconds = Math.floor(Date.now() / 1000),
): SignatureCheck {
  const parsed = parseSignatureHeader(header);
  if ("problem" in parsed) return { ok: false, reason: "bad_signature", detail: parsed.problem };
  let keyIndex = -1;
  keys.forEach((key, index) => {
    const expected = computeSignature(rawBody, parsed.timestamp, key);
    // Every pair is compared (no early exit), so timing does not reveal which entry matched.
    for (const candidate of parsed.signatures) {
      if (constantTimeEqual(candidate, expected) && keyIndex < 0) keyIndex = index;
    }
  });
  if (keyIndex < 0)
    return { ok: false, reason: "bad_signature", detail: "no v2 signature matches a server secret key" };
  const age = nowSeconds - parsed.timestamp;
  if (Math.abs(age) > SIGNATURE_TOLERANCE_SECONDS) {
    // A positive age is a timestamp in the past (a replay or a delayed request); negative, a sender's clock ahead of
    // ours.
    const when = age > 0 ? `${age} s in the past` : `${-age} s in the future`;
    return {
      ok: false,
      reason: "stale_timestamp",
      detail: `signature timestamp is ${when} (tolerance ${SIGNATURE_TOLERANCE_SECONDS} s)`,
    };
  }
  return { ok: true, keyIndex };
}
