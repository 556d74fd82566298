import { describe, expect, it } from "vitest";

import type { ConnectionHealth } from "./types";
import { healthFacts, healthVerdict, needsAttention } from "./verdict";

/** The one health rule: a connection's state comes from its alerts; its refusals are facts, never a verdict. */
const health = (over: Partial<ConnectionHealth> = {}): ConnectionHealth => ({
  id: "c1",
  name: "Globex",
  region: "eu",
  verifiedAt: null,
  keys: {},
  lastEventAt: "2026-12-01T10:00:00.000Z",
  events24h: 40,
  rejections24h: 0,
  topRejectionReason24h: null,
  unsigned24h: 0,
  lastUnsignedAt: null,
  badSignature24h: 0,
  lastBadSignatureAt: null,
  ...over,
});
const oneOldRefusal = health({
  rejections24h: 1,
  badSignature24h: 1,
  lastBadSignatureAt: "2026-12-01T00:00:00.000Z",
  topRejectionReason24h: { reason: "bad_signature", count: 1 },
});
const none = { open: 0, acknowledged: 0 };

describe("a connection's health verdict", () => {
  it("does not need attention for a refusal below the threshold: no alert is open", () => {
    expect(healthVerdict(oneOldRefusal, none)).toMatchObject({ label: "Healthy", tone: "success" });
    expect(needsAttention(none)).toBe(false);
  });

  it("states a refusal below the threshold as a neutral fact, with when the last one came", () => {
    expect(healthFacts(oneOldRefusal)).toEqual([
      { kind: "bad_signature", count: 1, lastAt: "2026-12-01T00:00:00.000Z" },
    ]);
  });

  it("needs attention while one of its alerts is open and unacknowledged", () => {
    expect(healthVerdict(health(), { open: 1, acknowledged: 0 })).toMatchObject({
      label: "Needs attention",
      tone: "danger",
      summary: "1 open alert: see what to do below.",
    });
    expect(needsAttention({ open: 2, acknowledged: 1 })).toBe(true);
  });

  it("shows acknowledged alerts as acknowledged, not as needing attention", () => {
    const acknowledged = { open: 0, acknowledged: 1 };
    expect(healthVerdict(oneOldRefusal, acknowledged)).toMatchObject({ label: "Acknowledged", tone: "info" });
    expect(needsAttention(acknowledged)).toBe(false);
  });

  it("judges nothing when the alerts could not be read: the facts alone, in a neutral tone", () => {
    expect(healthVerdict(oneOldRefusal, null)).toMatchObject({ label: "Quiet", tone: "neutral" });
    expect(healthVerdict(oneOldRefusal, null).summary).toContain("could not be read");
    expect(needsAttention(null)).toBe(false);
  });

  it("is quiet without events in 24 h and says so before the first event", () => {
    expect(healthVerdict(health({ events24h: 0 }), none).label).toBe("Quiet");
    expect(healthVerdict(health({ events24h: 0, lastEventAt: null }), none).label).toBe("No events yet");
  });

  it("lists unsigned events as a fact after the bad signatures", () => {
    const both = health({ badSignature24h: 2, lastBadSignatureAt: "a", unsigned24h: 3, lastUnsignedAt: "b" });
    expect(healthFacts(both).map((f) => [f.kind, f.count])).toEqual([
      ["bad_signature", 2],
      ["unsigned", 3],
    ]);
  });
});
