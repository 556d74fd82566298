import "server-only";
import { count, gt, max } from "drizzle-orm";
import { getDb } from "@/lib/db";
import { connections, webhookEvents, webhookRejections } from "@/lib/db/schema";

export type Overview = {
  connections: number;
  eventsLastDay: number;
  rejectionsLastDay: number;
  lastEventAt: string | null;
};

/** The numbers on the overview page: what is connected and whether webhooks are arriving. */
export async function getOverview(now = new Date()): Promise<Overview> {
  const db = await getDb();
  const dayAgo = new Date(now.getTime() - 24 * 60 * 60 * 1000);
  const [[conns], [events], [rejections]] = await Promise.all([
    db.select({ n: count() }).from(connections),
    db
      .select({ n: count(), last: max(webhookEvents.lastReceivedAt) })
      .from(webhookEvents)
      .where(gt(webhookEvents.lastReceivedAt, dayAgo)),
    db.select({ n: count() }).from(webhookRejections).where(gt(webhookRejections.receivedAt, dayAgo)),
  ]);
  const last = events?.last;
  return {
    connections: conns?.n ?? 0,
    eventsLastDay: events?.n ?? 0,
    rejectionsLastDay: rejections?.n ?? 0,
    lastEventAt: last ? new Date(last).toISOString() : null,
  };
}
