import { describe, expect, it } from "vitest";
import { redact } from "./logger";

describe("redact", () => {
  it("replaces secret-looking fields at any depth and keeps the rest", () => {
    expect(
      redact({ region: "us", managementKey: "sk_live", nested: { authorization: "Basic x", status: 401 }, serverSecret: "s" }),
    ).toEqual({ region: "us", managementKey: "[redacted]", nested: { authorization: "[redacted]", status: 401 }, serverSecret: "[redacted]" });
  });
});
