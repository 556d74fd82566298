import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

// Relative, not "@/": drizzle-kit reads this file (through schema.ts) without the app's path aliases.
import { DELAY_BUCKETS } from "./delay-buckets";

/*
 * The SQL expressions webhook_events' indexes are built on (schema.ts). A query reads an index through an
 * expression only when it writes the very same one, so the indexes and the queries (the log, the
 * overview's charts) both take them from here.
 */

/**
 * The UTC hour an event was received in, as webhook_events_expired_hour_idx indexes it (a query using the same
 * expression reads the index). date_bin on a UTC origin, not date_trunc: PostgreSQL 15 marks date_trunc with a time
 * zone only STABLE, and an index expression must be IMMUTABLE.
 */
export function receivedHourUtc(received: AnyPgColumn): SQL {
  return sql`date_bin('1 hour', ${received}, '2000-01-01T00:00:00Z'::timestamptz)`;
}

/**
 * The DELAY_BUCKETS index (0 = the first) of an event's delivery delay, as webhook_events_expired_hour_idx indexes
 * it: width_bucket over the lower bounds (0 below the second's, a negative delay included). The bounds are written
 * into the SQL: a parameter would make each use a different expression.
 */
export function deliveryDelayBucket(received: AnyPgColumn, expires: AnyPgColumn): SQL {
  const bounds = DELAY_BUCKETS.flatMap((b) => (b.fromSeconds === null ? [] : [b.fromSeconds]));
  return sql`width_bucket(date_part('epoch', ${received} - ${expires}), ${sql.raw(`array[${bounds.join(",")}]::float8[]`)})`;
}

/**
 * The service delivers an authenticator.expired event up to this long after the expiry (the spec: "up to 24
 * hours").
 */
export const DELIVERY_WINDOW_SECONDS = 86_400;

/**
 * Delivered within the window (0 to DELIVERY_WINDOW_SECONDS after expiring), or outside it (late, or
 * before the expiry by our clock); neither holds without an expiry. Written as the partial index's
 * predicate is, so a query using it can read that index.
 */
export function insideDeliveryWindow(received: AnyPgColumn, expires: AnyPgColumn): SQL {
  return sql`date_part('epoch', ${received} - ${expires}) between 0 and ${sql.raw(String(DELIVERY_WINDOW_SECONDS))}`;
}
export function outsideDeliveryWindow(received: AnyPgColumn, expires: AnyPgColumn): SQL {
  return sql`date_part('epoch', ${received} - ${expires}) not between 0 and ${sql.raw(String(DELIVERY_WINDOW_SECONDS))}`;
}
