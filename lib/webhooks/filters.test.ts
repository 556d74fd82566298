import { describe, expect, it } from "vitest";
import { eventFiltersSchema, parseEventFilters, parseFiltersLeniently, rejectionFiltersSchema } from "./filters";

describe("parseFiltersLeniently", () => {
  it("leaves out each parameter that does not parse, names it by its label, and applies the rest", () => {
    const { filters, ignored } = parseFiltersLeniently(eventFiltersSchema, {
      expiresFrom: "garbage",
      limit: "5000",
      userId: "usr_alice",
    });
    expect(filters).toMatchObject({ userId: "usr_alice", limit: 50, type: "authenticator.expired" });
    expect(filters.expiresFrom).toBeUndefined();
    expect(ignored.map((f) => f.label).sort()).toEqual(["Expired from", "Rows per page"]);
    expect(ignored.find((f) => f.name === "expiresFrom")?.message).toBe("must be an ISO 8601 time");
  });

  it("ignores nothing in a valid link", () => {
    expect(parseFiltersLeniently(rejectionFiltersSchema, { reason: "bad_signature" }).ignored).toEqual([]);
    expect(parseFiltersLeniently(rejectionFiltersSchema, { reason: "nope" }).ignored.map((f) => f.label)).toEqual(["Reason"]);
  });
});

describe("eventFiltersSchema", () => {
  it("upper-cases method and platform, which the spec writes in capitals", () => {
    expect(eventFiltersSchema.parse({ verificationMethod: " push ", devicePlatform: "ios" })).toMatchObject({
      verificationMethod: "PUSH",
      devicePlatform: "IOS",
    });
  });

  it("takes a connection id or all, and nothing else", () => {
    expect(parseEventFilters({ connectionId: "all" }).ok).toBe(true);
    expect(parseEventFilters({ connectionId: "3f6c2a1e-8b4d-4c7a-9e21-5d0f7a9b1c01" }).ok).toBe(true);
    expect(parseEventFilters({ connectionId: "Acme" }).ok).toBe(false);
  });
});
