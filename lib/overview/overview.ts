import "server-only";

import { and, count, eq, gte, sql } from "drizzle-orm";

import { getDb } from "@/lib/db";
import { connections, webhookEvents, webhookRejections } from "@/lib/db/schema";

import { DAY_MS } from "./links";
import { iso, realExpiredEvent, realRejection } from "./real";
import type { ConnectionHealth, OverviewTotals, RecentExpiry } from "./types";

/**
 * The overview page's data. Every number is counted in the database and leaves out test events; the
 * per-connection health is in ./health, the charts' series in ./charts.
 */
export { getConnectionHealth, getEmailOtpPresence } from "./health";
export { getDelayHistogram, getExpiredPerHour, getRejectionsPerDay } from "./charts";

const e = webhookEvents;
const r = webhookRejections;

/**
 * The headline numbers over every connection, the last 24 h before `now`: the events and the newest
 * one are the connections' (every event belongs to one, and their health has counted them from its
 * index); the refusals are counted here, as some belong to no connection (a URL that names none).
 */
export async function getOverviewTotals(health: ConnectionHealth[], now = new Date()): Promise<OverviewTotals> {
  const db = await getDb();
  const [refused] = await db
    .select({ n: count() })
    .from(r)
    .where(and(realRejection, gte(r.receivedAt, new Date(now.getTime() - DAY_MS))));
  const newest = health.reduce<string | null>(
    (last, h) => (h.lastEventAt && (!last || h.lastEventAt > last) ? h.lastEventAt : last),
    null,
  );
  return {
    connections: health.length,
    events24h: health.reduce((sum, h) => sum + h.events24h, 0),
    rejections24h: refused?.n ?? 0,
    lastEventAt: newest,
  };
}

/** How many expiries the "expired today" list shows. */
export const RECENT_EXPIRIES = 8;

/**
 * The real authenticator.expired events received in the last 24 h that expired last, newest expiry first: who,
 * which method, which tenant. The expired-events index bounds the rows; the sort keeps only the first `limit`.
 */
export async function getRecentExpiries(limit = RECENT_EXPIRIES, now = new Date()): Promise<RecentExpiry[]> {
  const db = await getDb();
  const rows = await db
    .select({
      id: e.id,
      connectionId: e.connectionId,
      connectionName: connections.name,
      userId: e.userId,
      verificationMethod: e.verificationMethod,
      devicePlatform: e.devicePlatform,
      expiresAt: e.expiresAt,
      firstReceivedAt: e.firstReceivedAt,
    })
    .from(e)
    .innerJoin(connections, eq(connections.id, e.connectionId))
    .where(and(realExpiredEvent, gte(e.firstReceivedAt, new Date(now.getTime() - DAY_MS))))
    .orderBy(sql`${e.expiresAt} desc nulls last`, sql`${e.firstReceivedAt} desc`, sql`${e.id} desc`)
    .limit(limit);
  return rows.map((row) => ({
    ...row,
    expiresAt: iso(row.expiresAt),
    firstReceivedAt: row.firstReceivedAt.toISOString(),
  }));
}
