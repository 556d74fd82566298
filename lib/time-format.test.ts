import { describe, expect, it } from "vitest";

import { formatRelative, formatUtc } from "./time-format";

const now = Date.parse("2026-11-24T12:00:00.000Z");
const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

describe("formatRelative", () => {
  it("says how long ago, in the largest unit that fits", () => {
    expect(formatRelative(ago(10), now)).toBe("just now");
    expect(formatRelative(ago(90), now)).toBe("2 min ago");
    expect(formatRelative(ago(3 * 3600), now)).toBe("3 h ago");
    expect(formatRelative(ago(5 * 86_400), now)).toBe("5 d ago");
  });

  it("says 'in' for an instant still to come (an expiry, a clock ahead)", () => {
    expect(formatRelative(ago(-600), now)).toBe("in 10 min");
    expect(formatRelative(ago(-30), now)).toBe("in under a minute");
    expect(formatRelative(ago(-2), now)).toBe("just now");
  });

  it("gives the UTC date beyond 30 days", () => {
    expect(formatRelative(ago(40 * 86_400), now)).toBe("2026-10-15");
  });
});

describe("formatUtc", () => {
  it("writes the instant in UTC, without milliseconds", () => {
    expect(formatUtc("2026-11-23T11:06:17.123Z")).toBe("2026-11-23 11:06:17 UTC");
  });
});
