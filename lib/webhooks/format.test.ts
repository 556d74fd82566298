import { describe, expect, it } from "vitest";

import { formatDelay, isDelayBeyondSpec } from "./format";

describe("delay", () => {
  it("formats received − expiresAt", () => {
    expect(formatDelay("2025-06-01T12:00:45Z", "2025-06-01T12:00:00Z")).toBe("45 s");
    expect(formatDelay("2025-06-01T15:05:00Z", "2025-06-01T12:00:00Z")).toBe("3 h 5 min");
    expect(formatDelay("2025-06-01T11:59:50Z", "2025-06-01T12:00:00Z")).toBe("10 s early");
    expect(formatDelay("2025-06-01T12:00:00Z", null)).toBe("—");
  });
  it("treats up to 24 h as normal", () => {
    expect(isDelayBeyondSpec("2025-06-02T12:00:00Z", "2025-06-01T12:00:00Z")).toBe(false);
    expect(isDelayBeyondSpec("2025-06-02T12:00:01Z", "2025-06-01T12:00:00Z")).toBe(true);
  });
});
