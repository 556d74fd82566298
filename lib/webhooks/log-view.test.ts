import { describe, expect, it } from "vitest";

import { formatInZone } from "@/components/webhooks/received-time";

import { countActiveFilters } from "./constants";

describe("the log's view helpers", () => {
  it("counts the filters a view applies, a range once, neither the connection nor the defaults", () => {
    expect(countActiveFilters({ type: "authenticator.expired", userIdMatch: "exact", limit: 50 })).toBe(0);
    expect(countActiveFilters({ connectionId: "all", userId: "usr_1", userIdMatch: "prefix" })).toBe(1);
    expect(countActiveFilters({ receivedFrom: "2026-01-01T00:00:00Z", receivedTo: "2026-01-02T00:00:00Z" })).toBe(1);
    expect(countActiveFilters({ type: "all", verificationMethod: "PUSH", received: "1h", cursor: "x" })).toBe(3);
  });

  it("writes a time in the reader's zone, with the day when it is not today there", () => {
    const now = Date.parse("2026-12-02T05:00:00Z");
    expect(formatInZone("2026-12-02T04:03:22Z", "UTC", now)).toBe("04:03:22");
    expect(formatInZone("2026-12-02T04:03:22Z", "Asia/Tokyo", now)).toBe("13:03:22");
    expect(formatInZone("2026-12-01T04:03:22Z", "Asia/Tokyo", now)).toBe("1 Dec 13:03:22");
  });
});
