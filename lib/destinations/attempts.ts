import "server-only";

import { sql } from "drizzle-orm";

import { getDb, rowsOf } from "@/lib/db";

import { ATTEMPTS_PAGE_SIZE } from "./constants";
import type { AttemptFilters } from "./schemas";
import type { DeliveryStats, DestinationAttempt, DestinationAttemptPage } from "./types";

/** A destination's own page: its attempts, newest first in keyset pages, and its deliveries over 24 h and 7 days. */

type AttemptRow = {
  id: number | string;
  started_at: string | Date;
  ok: boolean;
  status: number | null;
  latency_ms: number;
  outcome: string;
  event_id: string;
  origin: string;
  event_row_id: number | string | null;
};

const iso = (value: string | Date) => new Date(value).toISOString();

export async function listDestinationAttempts(
  destinationId: string,
  filters: AttemptFilters,
  pageSize = ATTEMPTS_PAGE_SIZE,
): Promise<DestinationAttemptPage> {
  const db = await getDb();
  const [beforeMs, beforeId] = filters.before?.split("-").map(Number) ?? [];
  const rows = rowsOf<AttemptRow>(
    await db.execute(sql`
    select a.id, a.started_at, a.ok, a.status, a.latency_ms, a.outcome, d.event_id, d.origin,
      (select e.id from webhook_events e where e.connection_id = d.connection_id and e.event_id = d.event_id limit 1) as event_row_id
    from forward_attempts a join forward_deliveries d on d.id = a.delivery_id
    where a.destination_id = ${destinationId}
      ${filters.outcome === undefined ? sql`` : sql`and a.ok = ${filters.outcome === "delivered"}`}
      ${
        beforeMs === undefined
          ? sql``
          : sql`and (a.started_at, a.id) < (${new Date(beforeMs).toISOString()}::timestamptz, ${beforeId})`
      }
    order by a.started_at desc, a.id desc
    limit ${pageSize + 1}`),
  );
  const attempts: DestinationAttempt[] = rows.slice(0, pageSize).map((row) => ({
    id: Number(row.id),
    startedAt: iso(row.started_at),
    ok: row.ok,
    status: row.status,
    latencyMs: row.latency_ms,
    outcome: row.outcome,
    eventId: row.event_id,
    eventRowId: row.event_row_id === null ? null : Number(row.event_row_id),
    origin: row.origin,
  }));
  const last = attempts.at(-1);
  return {
    attempts,
    nextBefore: rows.length > pageSize && last ? `${Date.parse(last.startedAt)}-${last.id}` : null,
  };
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const WINDOWS = {
  "24h": { slotMs: HOUR_MS, slots: 24 },
  "7d": { slotMs: DAY_MS, slots: 7 },
} as const;

type SlotRow = { slot: number | null; attempts: number; delivered: number; p95: number | string | null };
const p95Of = (value: number | string | null) => (value === null ? null : Math.round(Number(value)));

/** A destination's attempts over the window in UTC hours (24 h) or days (7 days), the current one included. */
export async function destinationDeliveryStats(
  destinationId: string,
  window: keyof typeof WINDOWS,
  now = new Date(),
): Promise<DeliveryStats> {
  const { slotMs, slots } = WINDOWS[window];
  const since = Math.floor(now.getTime() / slotMs) * slotMs - (slots - 1) * slotMs;
  const sinceIso = new Date(since).toISOString();
  const db = await getDb();
  // Grouping sets: one row per slot and one for the whole window (slot null), in one pass over the index.
  const rows = rowsOf<SlotRow>(
    await db.execute(sql`
    select slot, count(*)::int as attempts, (count(*) filter (where ok))::int as delivered,
      percentile_cont(0.95) within group (order by latency_ms) filter (where status is not null) as p95
    from (
      select floor(extract(epoch from (a.started_at - ${sinceIso}::timestamptz)) * 1000 / ${slotMs})::int as slot,
        a.ok, a.status, a.latency_ms
      from forward_attempts a
      where a.destination_id = ${destinationId} and a.started_at >= ${sinceIso}::timestamptz
    ) w
    group by grouping sets ((slot), ())`),
  );
  const total = rows.find((row) => row.slot === null) ?? { attempts: 0, delivered: 0, p95: null };
  const bySlot = new Map(rows.filter((row) => row.slot !== null).map((row) => [row.slot, row]));
  return {
    window,
    attempts: total.attempts,
    delivered: total.delivered,
    successRate: total.attempts > 0 ? total.delivered / total.attempts : null,
    p95LatencyMs: p95Of(total.p95),
    slots: Array.from({ length: slots }, (_, slot) => {
      const row = bySlot.get(slot);
      return {
        start: new Date(since + slot * slotMs).toISOString(),
        attempts: row?.attempts ?? 0,
        delivered: row?.delivered ?? 0,
        p95LatencyMs: p95Of(row?.p95 ?? null),
      };
    }),
  };
}
