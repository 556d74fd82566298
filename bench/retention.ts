/**
 * The retention part: a month of events, bulk-loaded, purged once past the retention period while events go on being
 * stored through the receiver's writer: the purge's time and what it did to their latency (docs/performance.md,
 * "How each part measures").
 */
import { sql } from "drizzle-orm";

import { bulkLoad, insertBulkConnections } from "@/tooling/bulk-load";

import { measuredPart, round, type BackendContext } from "./support/part";
import type { Metric } from "./support/report";
import { percentile } from "./support/timing";

const NAME = "retention";
const EVENTS = Number(process.env.BENCH_RETENTION_EVENTS ?? 1_000_000);
const RETENTION_DAYS = 90;
/** The loaded month: June of last year, received (and sent) from its first to its last day. */
const MONTH_START = new Date(Date.UTC(new Date().getUTCFullYear() - 1, 5, 1));
const MONTH_END = new Date(Date.UTC(new Date().getUTCFullYear() - 1, 6, 1));
const INGEST_EVERY_MS = 5;

export const retentionPart = measuredPart(
  NAME,
  `Retention: a month of ${EVENTS.toLocaleString("en")} events purged while events are stored every ${INGEST_EVERY_MS} ms`,
  {
    purge: "a month of 1,000,000 events purged in ≤ 1 s",
    ingest: "events stored during the purge are not held up by it",
  },
  measure,
);

async function measure(backend: BackendContext) {
  const { setUpTestDatabase } = await import("@/lib/testing/database");
  const { purgeWebhookData } = await import("@/lib/webhooks/retention");
  const { storeEvent } = await import("@/lib/webhooks/store");
  const { checkEnvelope } = await import("@/lib/webhooks/envelope");
  const { expiredEvent } = await import("@/lib/testing/webhooks");
  const { db, tearDown } = await setUpTestDatabase();
  try {
    const connections = await insertBulkConnections(db, 20);
    console.log(`  ${backend.key}: loading ${EVENTS.toLocaleString("en")} events into one month…`);
    await bulkLoad(db, {
      connections,
      events: EVENTS,
      rejections: 0,
      days: 29,
      now: new Date(MONTH_END.getTime() - 3_600_000),
    });

    // Events stored through the writer while the purge runs, each timed from call to commit.
    const latencies: number[] = [];
    let storing = true;
    const ingest = (async () => {
      for (let i = 0; storing; i++) {
        const body = JSON.stringify(
          expiredEvent({ time: new Date().toISOString(), data: { userId: `usr_during_purge_${i}` } }),
        );
        const checked = checkEnvelope(JSON.parse(body));
        if (!checked.ok) throw new Error(checked.description);
        const started = performance.now();
        await storeEvent({
          connectionId: connections[0]!.id,
          envelope: checked.envelope,
          data: checked.data,
          rawBody: body,
          signatureStatus: "unsigned",
          receivedAt: new Date(),
        });
        latencies.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, INGEST_EVERY_MS));
      }
    })();
    await new Promise((r) => setTimeout(r, 500));
    const before = latencies.length;
    const started = performance.now();
    // A day after the month passed the retention period: the whole month is before the cutoff.
    const purge = await purgeWebhookData(
      new Date(MONTH_END.getTime() + (RETENTION_DAYS + 1) * 86_400_000),
      RETENTION_DAYS,
    );
    const seconds = (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 500));
    storing = false;
    await ingest;
    const during = latencies.slice(before).sort((a, b) => a - b);
    const left = (await db.execute(
      sql`select count(*)::int as n from webhook_events where first_received_at < ${MONTH_END.toISOString()}::timestamptz`,
    )) as unknown as {
      rows: Array<{ n: number }>;
    };
    const metrics: Metric[] = [
      { metric: "events in the month", value: EVENTS, unit: "", display: EVENTS.toLocaleString("en") },
      { metric: "purge of the month", value: round(seconds, 2), unit: "s", target: { op: "<=", value: 1 } },
      {
        metric: "partitions dropped",
        value: purge.ran ? purge.partitionsDropped.length : 0,
        unit: "",
        display: purge.ran ? purge.partitionsDropped.join(", ") : "did not run",
      },
      { metric: "events of the month left", value: left.rows[0]!.n, unit: "", target: { op: "<=", value: 0 } },
      { metric: "events stored during the purge ±0.5 s", value: during.length, unit: "" },
      {
        metric: "their latency p50 / p99 / max",
        value: round(percentile(during, 99), 1),
        unit: "ms",
        display: `${round(percentile(during, 50), 1)} / ${round(percentile(during, 99), 1)} / ${round(during.at(-1) ?? 0, 1)} ms`,
      },
    ];
    return { metrics, month: MONTH_START.toISOString().slice(0, 7) };
  } finally {
    await tearDown();
  }
}
