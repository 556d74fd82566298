import { describe, expect, it } from "vitest";

import { auditFilterQuery, auditFilterSchema, parseAuditSearch } from "./schemas";

describe("auditFilterQuery", () => {
  it("keeps the filled fields, in the parsed form, and leaves the empty ones out", () => {
    const filter = auditFilterSchema.parse({ actor: " ada@ ", action: "", from: "2025-01-02T03:04", cursor: "MTI" });
    expect(auditFilterQuery(filter)).toBe("actor=ada%40&from=2025-01-02T03%3A04%3A00Z&cursor=MTI");
  });

  it("is empty for no filter, so the first page and a cleared filter share a key", () => {
    expect(auditFilterQuery(auditFilterSchema.parse({}))).toBe("");
  });
});

describe("parseAuditSearch", () => {
  it("takes the first of repeated parameters, drops bad ones, and keeps the times as typed", () => {
    const { filter, typedTimes } = parseAuditSearch({
      action: ["email_otp.deleted", "x"],
      connectionId: "not-a-uuid",
      from: "2025-01-02T03:04",
    });
    expect(filter).toEqual({ action: "email_otp.deleted", from: "2025-01-02T03:04:00Z" });
    expect(typedTimes).toEqual({ from: "2025-01-02T03:04", to: undefined });
  });
});
