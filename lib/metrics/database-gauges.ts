import "server-only";

import { sql } from "drizzle-orm";
import pg from "pg";
import { Gauge, type Registry } from "prom-client";

import { getDb, rowsOf } from "@/lib/db";
import { alertKindEnum } from "@/lib/db/alerts-schema";
import { errorMessage } from "@/lib/error-message";
import { logger } from "@/lib/logger";

/**
 * The gauges read from the database when Prometheus scrapes: the same figures on every instance (they
 * describe the shared database, so sum them across instances never). Each scrape reads three
 * statements, each over an index or a table of a few rows (docs/performance.md, "Metrics").
 */

type DestinationRow = {
  id: string;
  connection_id: string;
  name: string;
  enabled: boolean;
  paused: boolean;
  tripped: boolean;
  pending: number;
  oldest_due_seconds: number;
};
type Snapshot = {
  connections: Array<{ id: string; name: string; region: string }>;
  destinations: DestinationRow[];
  openAlerts: Map<string, number>;
  pool: { total: number; idle: number; waiting: number } | null;
};

/**
 * A destination's backlog: its pending deliveries (queued, or under way and leased), counted on the
 * partial index forward_deliveries_destination_due_idx, and how long the oldest of them has been due
 * (0 when none is due yet: a retry's wait, a lease, a breaker's probe still to come).
 */
const DESTINATIONS = sql`
  select f.id, f.connection_id, f.name, f.enabled, f.paused_at is not null as paused, f.tripped_at is not null as tripped,
    (select count(*) from forward_deliveries d where d.destination_id = f.id and d.state = 'pending')::int as pending,
    coalesce(extract(epoch from now() - (select d.due_at from forward_deliveries d
      where d.destination_id = f.id and d.state = 'pending' order by d.due_at limit 1)), 0)::float8 as oldest_due_seconds
  from forward_destinations f`;
/** On the partial unique index alerts_open_idx: at most one open alert per condition. */
const OPEN_ALERTS = sql`select kind, count(*)::int as open from alerts where state = 'open' group by kind`;
const CONNECTIONS = sql`select id, name, region from connections`;
/** A scrape's statements, for the bench to time and EXPLAIN. */
export const SCRAPE_QUERIES = { connections: CONNECTIONS, destinations: DESTINATIONS, openAlerts: OPEN_ALERTS };

async function readSnapshot(): Promise<Snapshot> {
  const db = await getDb();
  // One after the other: on PGlite they would queue anyway, and on PostgreSQL a scrape takes one connection.
  const connections = rowsOf<Snapshot["connections"][number]>(await db.execute(CONNECTIONS));
  const destinations = rowsOf<DestinationRow>(await db.execute(DESTINATIONS));
  const alerts = rowsOf<{ kind: string; open: number }>(await db.execute(OPEN_ALERTS));
  const client = (db as unknown as { $client: unknown }).$client;
  const pool =
    client instanceof pg.Pool
      ? { total: client.totalCount, idle: client.idleCount, waiting: client.waitingCount }
      : null;
  return {
    connections,
    destinations: destinations.map((d) => ({
      ...d,
      pending: Number(d.pending),
      oldest_due_seconds: Math.max(0, Number(d.oldest_due_seconds)),
    })),
    openAlerts: new Map(alerts.map((a) => [a.kind, Number(a.open)])),
    pool,
  };
}

/**
 * Every gauge's collect() runs at once in a scrape (the registry gathers them side by side): the first
 * reads the database and the rest share what it read; the next scrape reads again.
 */
let reading: Promise<Snapshot | null> | null = null;
function snapshot(): Promise<Snapshot | null> {
  reading ??= readSnapshot()
    .catch((error: unknown) => {
      logger.warn("metrics could not read the database", { error: errorMessage(error) });
      return null;
    })
    .finally(() => {
      queueMicrotask(() => (reading = null));
    });
  return reading;
}

/** A destination's state, one of these at a time: off wins over paused, paused over tripped. */
const DESTINATION_STATES = ["on", "off", "paused", "tripped"] as const;
const stateOf = (d: DestinationRow) => (!d.enabled ? "off" : d.paused ? "paused" : d.tripped ? "tripped" : "on");

/** Adds the database's gauges to `registry`: each refreshed from one shared read per scrape. */
export function registerDatabaseGauges(registry: Registry): void {
  const gauge = <L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    fill: (g: Gauge<L>, s: Snapshot) => void,
  ) =>
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        const read = await snapshot();
        this.reset();
        if (read) fill(this, read);
      },
    });

  new Gauge({
    name: "tenant_console_database_up",
    help: "1 when this scrape's database reads answered, 0 when they failed (then the other database gauges are empty).",
    registers: [registry],
    async collect() {
      this.set((await snapshot()) ? 1 : 0);
    },
  });
  gauge(
    "tenant_console_connection_info",
    "A connection's name and region (value 1), to join on connection_id. Same on every instance.",
    ["connection_id", "name", "region"],
    (g, s) => {
      for (const c of s.connections) g.set({ connection_id: c.id, name: c.name, region: c.region }, 1);
    },
  );
  gauge(
    "tenant_console_destination_info",
    "A destination's name and connection (value 1), to join on destination_id. Same on every instance.",
    ["destination_id", "connection_id", "name"],
    (g, s) => {
      for (const d of s.destinations) g.set({ destination_id: d.id, connection_id: d.connection_id, name: d.name }, 1);
    },
  );
  gauge(
    "tenant_console_destination_state",
    "A destination's state: 1 for the one it is in (on, off: turned off by an admin, paused: after 24 h of failures, tripped: its circuit breaker open), 0 for the others. Same on every instance.",
    ["destination_id", "state"],
    (g, s) => {
      for (const d of s.destinations)
        for (const state of DESTINATION_STATES) g.set({ destination_id: d.id, state }, stateOf(d) === state ? 1 : 0);
    },
  );
  gauge(
    "tenant_console_outbox_pending_deliveries",
    "Deliveries queued for a destination or under way (pending). Same on every instance.",
    ["destination_id"],
    (g, s) => {
      for (const d of s.destinations) g.set({ destination_id: d.id }, d.pending);
    },
  );
  gauge(
    "tenant_console_outbox_oldest_due_age_seconds",
    "How long a destination's oldest pending delivery has been due (0: none due yet). Same on every instance.",
    ["destination_id"],
    (g, s) => {
      for (const d of s.destinations) g.set({ destination_id: d.id }, d.oldest_due_seconds);
    },
  );
  gauge(
    "tenant_console_alerts_open",
    "Open alerts, by kind (every kind, 0 when none is open). Same on every instance.",
    ["kind"],
    (g, s) => {
      for (const kind of alertKindEnum.enumValues) g.set({ kind }, s.openAlerts.get(kind) ?? 0);
    },
  );
  gauge(
    "tenant_console_db_pool_clients",
    "This instance's PostgreSQL pool: connections in use and idle, and queries waiting for one. Absent on PGlite, one embedded connection with no pool.",
    ["state"],
    (g, s) => {
      if (!s.pool) return;
      g.set({ state: "in_use" }, s.pool.total - s.pool.idle);
      g.set({ state: "idle" }, s.pool.idle);
      g.set({ state: "waiting" }, s.pool.waiting);
    },
  );
}
