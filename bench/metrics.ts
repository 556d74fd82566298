/**
 * The metrics part: one scrape of GET /api/metrics's registry at 1,000,000 events with a backlog of queued deliveries;
 * each scrape statement's plan is kept, as none may read the deliveries or alerts table whole (docs/performance.md,
 * "Metrics").
 */
import crypto from "node:crypto";

import { sql, type SQL } from "drizzle-orm";

import { bulkLoad, insertBulkConnections, inUntimedTransaction } from "@/tooling/bulk-load";

import { measuredPart, round, type BackendContext } from "./support/part";
import type { Metric } from "./support/report";
import { timeRuns } from "./support/timing";

const NAME = "metrics";
const EVENTS = Number(process.env.BENCH_METRICS_EVENTS ?? 1_000_000);
const BACKLOG = Number(process.env.BENCH_METRICS_BACKLOG ?? 100_000);
const SCRAPES = Number(process.env.BENCH_METRICS_SCRAPES ?? 20);
const CONNECTIONS = 20;
const RESOLVED_ALERTS = 10_000;
const TARGET_MS = 250;

export const metricsPart = measuredPart(
  NAME,
  `Metrics: one scrape at ${EVENTS.toLocaleString("en")} events, ${BACKLOG.toLocaleString("en")} deliveries queued`,
  {
    scrape: `one scrape (registry and database gauges) in ≤ ${TARGET_MS} ms`,
    plans: "no scrape statement reads forward_deliveries or alerts whole",
  },
  measure,
);

type PlanNode = { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; Plans?: PlanNode[] };

/**
 * Every table a plan reads, and how: "forward_deliveries: Index Only Scan (forward_deliveries_destination_due_idx)".
 */
function reads(node: PlanNode, into: string[] = []): string[] {
  if (node["Relation Name"])
    into.push(`${node["Relation Name"]}: ${node["Node Type"]}${node["Index Name"] ? ` (${node["Index Name"]})` : ""}`);
  for (const child of node.Plans ?? []) reads(child, into);
  return into;
}

/**
 * A fresh database of the backend's kind. On PostgreSQL, a new database migrated here: setUpTestDatabase
 * copies the template a Vitest run makes (inject), which outside Vitest does not exist.
 */
async function freshDatabase() {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) return (await import("@/lib/testing/database")).setUpTestDatabase();
  const { databaseUrl, withAdminClient } = await import("@/lib/testing/templates");
  const { installDatabase, openDatabase, closeDb } = await import("@/lib/db");
  const name = `bench_metrics_${crypto.randomBytes(6).toString("hex")}`;
  await withAdminClient(adminUrl, (c) => c.query(`create database ${name}`));
  const handle = await openDatabase({ kind: "postgres", url: databaseUrl(adminUrl, name) });
  installDatabase(handle);
  const tearDown = async () => {
    await closeDb();
    await withAdminClient(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
  };
  return { db: handle.db, tearDown };
}

async function measure(backend: BackendContext) {
  const { scrapeMetrics } = await import("@/lib/metrics/metrics");
  const { SCRAPE_QUERIES } = await import("@/lib/metrics/database-gauges");
  const { db, tearDown } = await freshDatabase();
  try {
    const connections = await insertBulkConnections(db, CONNECTIONS);
    console.log(
      `  ${backend.key}: loading ${EVENTS.toLocaleString("en")} events, their deliveries and a backlog of ${BACKLOG.toLocaleString("en")}…`,
    );
    await bulkLoad(db, { connections, events: EVENTS, rejections: 0, days: 30 });
    await inUntimedTransaction(db, async (tx) => {
      for (const connection of connections) {
        await tx.execute(
          sql`insert into forward_destinations (connection_id, name, url) values (${connection.id}, 'Tenant app', 'https://app.example.com/hooks')`,
        );
      }
      // Every event delivered once; the newest BACKLOG still pending (due over the last hour, so some are overdue).
      await tx.execute(sql`
        insert into forward_deliveries (destination_id, connection_id, event_id, state, attempts, due_at, created_at, finished_at)
        select d.id, w.connection_id, w.event_id, 'delivered', 1, w.first_received_at, w.first_received_at, w.first_received_at + interval '1 second'
        from webhook_events w join forward_destinations d on d.connection_id = w.connection_id`);
      await tx.execute(sql`
        update forward_deliveries set state = 'pending', finished_at = null, attempts = 0, due_at = now() - random() * interval '1 hour'
        where id > (select max(id) from forward_deliveries) - ${BACKLOG}`);
      await tx.execute(sql`
        insert into alerts (connection_id, kind, state, opened_at, last_seen_at, resolved_at, measure)
        select (${sql.raw(`array[${connections.map((c) => `'${c.id}'`).join(",")}]::uuid[]`)})[1 + g % ${CONNECTIONS}], 'silence', 'resolved',
          now() - g * interval '1 hour', now() - g * interval '1 hour', now() - g * interval '1 hour', '{}'::jsonb
        from generate_series(1, ${RESOLVED_ALERTS}) g`);
      for (const [i, kind] of (["bad_signatures", "destination_failing", "late_events"] as const).entries()) {
        await tx.execute(
          sql`insert into alerts (connection_id, kind, subject, opened_at, last_seen_at, measure) values (${connections[i]!.id}, ${kind}, ${crypto.randomUUID()}, now(), now(), '{}'::jsonb)`,
        );
      }
    });
    await db.execute(sql`vacuum analyze forward_deliveries`);
    await db.execute(sql`vacuum analyze alerts`);

    const plans: Record<string, string[]> = {};
    for (const [name, query] of Object.entries(SCRAPE_QUERIES) as Array<[string, SQL]>) {
      const explained = (await db.execute(sql`explain (format json) ${query}`)) as unknown as {
        rows: Array<{ "QUERY PLAN": unknown }>;
      };
      const plan = explained.rows[0]!["QUERY PLAN"];
      plans[name] = reads((typeof plan === "string" ? JSON.parse(plan) : plan)[0].Plan);
    }
    const wholeReads = Object.values(plans)
      .flat()
      .filter((read) => /^(forward_deliveries|alerts): Seq Scan/.test(read));

    const { body } = await scrapeMetrics();
    const timing = await timeRuns(SCRAPES, scrapeMetrics);
    const backlog = /tenant_console_outbox_pending_deliveries\{[^}]*\} (\d+)/g;
    const queued = [...body.matchAll(backlog)].reduce((total, match) => total + Number(match[1]), 0);
    const metrics: Metric[] = [
      { metric: "events stored", value: EVENTS, unit: "", display: EVENTS.toLocaleString("en") },
      { metric: "deliveries queued (scraped)", value: queued, unit: "", display: queued.toLocaleString("en") },
      {
        metric: `one scrape, p50 of ${SCRAPES}`,
        value: round(timing.p50Ms, 1),
        unit: "ms",
        target: { op: "<=", value: TARGET_MS },
      },
      {
        metric: "p95 / slowest scrape",
        value: round(timing.p95Ms, 1),
        unit: "ms",
        display: `${round(timing.p95Ms, 1)} / ${round(timing.maxMs, 1)} ms`,
      },
      {
        metric: "scrape statements reading deliveries or alerts whole",
        value: wholeReads.length,
        unit: "",
        target: { op: "<=", value: 0 },
      },
      { metric: "exposition size", value: round(body.length / 1024, 1), unit: "KiB" },
    ];
    return { metrics, plans };
  } finally {
    await tearDown();
  }
}
