import "server-only";

import { and, count, gte, lt, sql } from "drizzle-orm";

import { getDb } from "@/lib/db";
import { DELAY_BUCKETS } from "@/lib/db/delay-buckets";
import { deliveryDelayBucket, receivedHourUtc } from "@/lib/db/event-expressions";
import { webhookEvents, webhookRejections } from "@/lib/db/schema";

import { DAY_MS, HOUR_MS } from "./links";
import { iso, realExpiredEvent, realRejection } from "./real";
import { orderSeries, seriesOf, type SeriesKind } from "./series";
import type { DelayHistogram, ExpiredPerHour, RejectionsPerDay } from "./types";

const e = webhookEvents;
const r = webhookRejections;

/** The charts' span: the last 7 days (the per-hour charts: 168 whole hours, the current one last). */
export const CHART_DAYS = 7;

/** A bound compared with an expression (no column to map it): typed in the SQL, the same on both drivers. */
const instant = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;

/** Slots of `stepMs` (aligned to UTC) whose last one holds `now`, oldest first. */
function slots(now: Date, stepMs: number, n: number): number[] {
  const last = Math.floor(now.getTime() / stepMs) * stepMs;
  return Array.from({ length: n }, (_, i) => last - (n - 1 - i) * stepMs);
}

/** Grouped counts (slot start, stored value, n) folded into per-slot series counts, zero-filled. */
function perSlot(
  kind: SeriesKind,
  starts: number[],
  rows: Array<{ at: string | Date; value: string | null; n: number }>,
) {
  const bySlot = new Map(starts.map((start) => [start, { total: 0, bySeries: {} as Record<string, number> }]));
  const present = new Set<string>();
  let total = 0;
  for (const row of rows) {
    const slot = bySlot.get(new Date(row.at).getTime());
    if (!slot) continue;
    const series = seriesOf(kind, row.value);
    slot.bySeries[series] = (slot.bySeries[series] ?? 0) + row.n;
    slot.total += row.n;
    total += row.n;
    present.add(series);
  }
  return {
    slots: starts.map((start) => ({ start: iso(new Date(start))!, ...bySlot.get(start)! })),
    series: orderSeries(kind, present),
    total,
  };
}

/** authenticator.expired events per hour (by first receipt) over the last 7 days, by verification method. */
export async function getExpiredPerHour(now = new Date()): Promise<ExpiredPerHour> {
  const starts = slots(now, HOUR_MS, CHART_DAYS * 24);
  // The indexed hour expression, filtered and grouped on: the range and the groups come from the index.
  const hour = receivedHourUtc(e.firstReceivedAt);
  const db = await getDb();
  const rows = await db
    .select({ at: sql<string>`${hour}`, value: e.verificationMethod, n: count() })
    .from(e)
    .where(and(realExpiredEvent, gte(hour, instant(starts[0]!)), lt(hour, instant(starts.at(-1)! + HOUR_MS))))
    .groupBy(hour, e.verificationMethod);
  const folded = perSlot("method", starts, rows);
  return {
    hours: folded.slots.map(({ start, ...rest }) => ({ hour: start, ...rest })),
    series: folded.series,
    total: folded.total,
  };
}

/**
 * Delivery delay of the last 7 days' authenticator.expired events in DELAY_BUCKETS, grouped by the indexed bucket
 * expression. The days are the hourly chart's 168 whole hours, bounded on the index's leading column alone (a bound
 * on a later column costs a check per entry), so `received=7d` may hold up to an hour more at its oldest end.
 */
export async function getDelayHistogram(now = new Date()): Promise<DelayHistogram> {
  const bucket = deliveryDelayBucket(e.firstReceivedAt, e.expiresAt);
  const [from] = slots(now, HOUR_MS, CHART_DAYS * 24);
  const db = await getDb();
  const rows = await db
    .select({ bucket: sql<number | null>`${bucket}`, n: count() })
    .from(e)
    .where(and(realExpiredEvent, gte(receivedHourUtc(e.firstReceivedAt), instant(from!))))
    .groupBy(bucket);
  // An event without expiresAt has no delay: its bucket is null, and it is not drawn.
  const counts = new Map(rows.filter((row) => row.bucket !== null).map((row) => [Number(row.bucket), row.n]));
  const buckets = DELAY_BUCKETS.map((b, index) => ({
    key: b.key,
    label: b.label,
    count: counts.get(index) ?? 0,
    late: b.fromSeconds !== null && b.fromSeconds >= DAY_MS / 1000,
  }));
  return {
    buckets,
    total: buckets.reduce((sum, b) => sum + b.count, 0),
    late: buckets.filter((b) => b.late).reduce((sum, b) => sum + b.count, 0),
  };
}

/** Refused deliveries per UTC day over the last 7 days (today included), by reason. */
export async function getRejectionsPerDay(now = new Date()): Promise<RejectionsPerDay> {
  const starts = slots(now, DAY_MS, CHART_DAYS);
  const day = sql<string>`date_trunc('day', ${r.receivedAt}, 'UTC')`;
  const db = await getDb();
  const rows = await db
    .select({ at: day, value: r.reason, n: count() })
    .from(r)
    .where(
      and(realRejection, gte(r.receivedAt, new Date(starts[0]!)), lt(r.receivedAt, new Date(starts.at(-1)! + DAY_MS))),
    )
    .groupBy(day, r.reason);
  const folded = perSlot("reason", starts, rows);
  return {
    days: folded.slots.map(({ start, ...rest }) => ({ day: start, ...rest })),
    series: folded.series,
    total: folded.total,
  };
}
