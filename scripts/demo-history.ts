import { and, eq, like, sql } from "drizzle-orm";

import { getDb } from "@/lib/db";
import { webhookEvents } from "@/lib/db/schema";
import { BULK_TENANT_PREFIX, bulkLoad, type BulkLoadResult } from "@/tooling/bulk-load";

/**
 * A week of demo history, so every card and chart of the overview has data from the first minute: events over every
 * delay bucket and a few rejections, bulk-loaded before the console starts. Their ids start with `demo-history-`, so
 * a row of it is told from the live story's at a glance.
 */
export const DEMO_HISTORY = { days: 7, events: 3_000, rejections: 30, users: 60, idPrefix: "demo-history-" } as const;

export type HistoryConnection = { id: string; name: string; tenantId: string };

export async function backfillDemoHistory(
  connections: readonly HistoryConnection[],
  now = new Date(),
): Promise<BulkLoadResult> {
  const { days, events, rejections, users, idPrefix } = DEMO_HISTORY;
  const db = await getDb();
  const loaded = await bulkLoad(db, {
    connections: connections.map(({ id, name }) => ({ id, name, signed: true })),
    events,
    rejections,
    days,
    users,
    idPrefix,
    now,
  });
  // The loader makes up tenant ids and a short body; the demo's rows carry their tenant's real id (the
  // console reads it back, e.g. for a test event) and the envelope the service sends, as the drawer shows it.
  // Every row whose tenant the loader made up: its test events too, whose ids have the test events' prefix.
  const e = webhookEvents;
  for (const { id, tenantId } of connections) {
    const data = sql`json_strip_nulls(json_build_object('userId', ${e.userId}, 'verificationMethod', ${e.verificationMethod},
      'createdAt', ${e.authenticatorCreatedAt}, 'expiresAt', ${e.expiresAt}, 'userAuthenticatorId', ${e.userAuthenticatorId},
      'deviceName', ${e.deviceName}, 'devicePlatform', ${e.devicePlatform}))`;
    await db
      .update(e)
      .set({
        tenantId,
        rawBody: sql`json_build_object('version', 1, 'id', ${e.eventId}, 'source', 'https://authsignal.com', 'time', ${e.envelopeTime},
          'tenantId', ${tenantId}::text, 'type', ${e.type}, 'data', ${data})::text`,
      })
      .where(and(eq(e.connectionId, id), like(e.tenantId, `${BULK_TENANT_PREFIX}%`)));
  }
  return loaded;
}
