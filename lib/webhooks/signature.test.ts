import { describe, expect, it } from "vitest";

import { signatureHeader, verifyWebhookSignature } from "./signature";

const KEY = "sk_test_signature";
const body = Buffer.from('{"id":"evt"}');
const signedAt = 1_800_000_000;

describe("verifyWebhookSignature: stale timestamps", () => {
  it("says a timestamp 600 s old is in the past", () => {
    const check = verifyWebhookSignature(body, signatureHeader(body, signedAt, [KEY]), [KEY], signedAt + 600);
    expect(check).toEqual({
      ok: false,
      reason: "stale_timestamp",
      detail: "signature timestamp is 600 s in the past (tolerance 300 s)",
    });
  });

  it("says a timestamp 600 s ahead is in the future", () => {
    const check = verifyWebhookSignature(body, signatureHeader(body, signedAt, [KEY]), [KEY], signedAt - 600);
    expect(check).toEqual({
      ok: false,
      reason: "stale_timestamp",
      detail: "signature timestamp is 600 s in the future (tolerance 300 s)",
    });
  });

  it("accepts a timestamp within the tolerance", () => {
    expect(verifyWebhookSignature(body, signatureHeader(body, signedAt, [KEY]), [KEY], signedAt + 300)).toEqual({
      ok: true,
      keyIndex: 0,
    });
  });
});
