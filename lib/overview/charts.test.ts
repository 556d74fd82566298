import { beforeAll, describe, expect, it } from "vitest";

import {
  getConnectionHealth,
  getDelayHistogram,
  getExpiredPerHour,
  getOverviewTotals,
  getRecentExpiries,
  getRejectionsPerDay,
} from "./overview";
import { ago, clearEvents, DAY, HOUR, insertEvents, MIN, now, overviewFixture, type EventSeed } from "./test-helpers";
import { healthVerdict } from "./verdict";

/** The overview's charts (./charts.ts) over a database of their own: empty, then each chart's rows. */
const overview = overviewFixture();

describe("empty database", () => {
  it("every chart and count is zero, with the time slots still laid out", async () => {
    const perHour = await getExpiredPerHour(now);
    expect(perHour.total).toBe(0);
    expect(perHour.series).toEqual([]);
    expect(perHour.hours).toHaveLength(7 * 24);
    expect(perHour.hours.at(-1)!.hour).toBe("2025-06-08T12:00:00.000Z");
    expect(perHour.hours[0]!.hour).toBe("2025-06-01T13:00:00.000Z");
    const delays = await getDelayHistogram(now);
    expect(delays.total).toBe(0);
    expect(delays.buckets.map((b) => b.count)).toEqual([0, 0, 0, 0, 0, 0]);
    const rejections = await getRejectionsPerDay(now);
    expect(rejections.total).toBe(0);
    expect(rejections.days.map((d) => d.day)).toEqual(
      ["2025-06-02", "2025-06-03", "2025-06-04", "2025-06-05", "2025-06-06", "2025-06-07", "2025-06-08"].map(
        (d) => `${d}T00:00:00.000Z`,
      ),
    );
    expect(await getRecentExpiries(8, now)).toEqual([]);
    const health = await getConnectionHealth(undefined, now);
    expect(await getOverviewTotals(health, now)).toEqual({
      connections: 3,
      events24h: 0,
      rejections24h: 0,
      lastEventAt: null,
    });
    expect(health.map((h) => [h.name, h.events24h, h.rejections24h, h.lastEventAt, h.topRejectionReason24h])).toEqual([
      ["Acme", 0, 0, null, null],
      ["Globex", 0, 0, null, null],
      ["Initech", 0, 0, null, null],
    ]);
    expect(healthVerdict(health[0]!, { open: 0, acknowledged: 0 }).label).toBe("No events yet");
  });
});

describe("expired events per hour", () => {
  beforeAll(async () => {
    await clearEvents();
    const at = (hours: number, minutes: number) =>
      new Date(Date.parse("2025-06-08T00:00:00Z") + hours * HOUR + minutes * MIN);
    await insertEvents(
      { receivedAt: at(10, 0), method: "PUSH" }, // the hour's first instant belongs to it
      { receivedAt: at(10, 40), method: "PUSH", connectionId: overview.globex },
      { receivedAt: at(10, 30), method: "SMS" },
      { receivedAt: new Date(Date.parse("2025-06-08T10:59:59.999Z")), method: "SMS" },
      { receivedAt: at(11, 0), method: "PUSH" }, // the next hour's first instant
      { receivedAt: at(12, 29), method: "FAX" }, // no method this console knows: "other"
      { receivedAt: at(12, 29), method: null },
      { receivedAt: at(10, 20), method: "PUSH", isTest: true }, // a test event: never counted
      { receivedAt: at(10, 20), method: "PUSH", type: "authenticator.created" }, // another kind
      { receivedAt: new Date(Date.parse("2025-06-01T12:59:59.999Z")), method: "PUSH" }, // before the first hour
      { receivedAt: new Date(Date.parse("2025-06-01T13:00:00.000Z")), method: "PASSKEY" }, // the first hour
    );
  });

  it("counts per hour and method, test events and other types left out", async () => {
    const perHour = await getExpiredPerHour(now);
    const hour = (iso: string) => perHour.hours.find((h) => h.hour === iso);
    expect(hour("2025-06-08T10:00:00.000Z")).toEqual({
      hour: "2025-06-08T10:00:00.000Z",
      total: 4,
      bySeries: { PUSH: 2, SMS: 2 },
    });
    expect(hour("2025-06-08T11:00:00.000Z")).toEqual({
      hour: "2025-06-08T11:00:00.000Z",
      total: 1,
      bySeries: { PUSH: 1 },
    });
    expect(hour("2025-06-08T12:00:00.000Z")).toEqual({
      hour: "2025-06-08T12:00:00.000Z",
      total: 2,
      bySeries: { other: 2 },
    });
    expect(hour("2025-06-01T13:00:00.000Z")).toEqual({
      hour: "2025-06-01T13:00:00.000Z",
      total: 1,
      bySeries: { PASSKEY: 1 },
    });
    expect(perHour.total).toBe(8);
    // Known methods in their fixed colour order (SERVICE-FACTS' list), the folded rest last.
    expect(perHour.series).toEqual(["SMS", "PASSKEY", "PUSH", "other"]);
  });
});

describe("delivery delay histogram", () => {
  beforeAll(async () => {
    await clearEvents();
    const receivedAt = ago(HOUR);
    const delayed = (ms: number, extra: Partial<EventSeed> = {}) => ({
      receivedAt,
      expiresAt: new Date(receivedAt.getTime() - ms),
      ...extra,
    });
    await insertEvents(
      delayed(-5_000), // received before the stated expiry: under 1 min
      delayed(0),
      delayed(59_999),
      delayed(60_000), // each bound starts its bucket
      delayed(599_999),
      delayed(600_000),
      delayed(3_600_000 - 1),
      delayed(3_600_000),
      delayed(21_600_000),
      delayed(86_400_000 - 1),
      delayed(86_400_000), // exactly 24 h is already late
      delayed(3 * DAY),
      delayed(3 * DAY, { isTest: true }),
      { receivedAt, expiresAt: null }, // no expiry: no delay to bucket
      { receivedAt: ago(8 * DAY), expiresAt: ago(9 * DAY) }, // older than the 7 days
    );
  });

  it("buckets at their boundaries, lower bound inclusive; > 24 h is marked late", async () => {
    const delays = await getDelayHistogram(now);
    expect(delays.buckets.map((b) => [b.key, b.count, b.late])).toEqual([
      ["lt1m", 3, false],
      ["1m-10m", 2, false],
      ["10m-1h", 2, false],
      ["1h-6h", 1, false],
      ["6h-24h", 2, false],
      ["gt24h", 2, true],
    ]);
    expect(delays.total).toBe(12);
    expect(delays.late).toBe(2);
  });
});
