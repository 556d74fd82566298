import "server-only";

import { eq, gte, lte, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

import { DELAY_BUCKETS } from "@/lib/db/delay-buckets";
import {
  DELIVERY_WINDOW_SECONDS,
  deliveryDelayBucket,
  insideDeliveryWindow,
  outsideDeliveryWindow,
} from "@/lib/db/event-expressions";
import { escapeLike } from "@/lib/db/like";
import { webhookEvents } from "@/lib/db/schema";

import { ALL_CONNECTIONS, ALL_TYPES, RECEIVED_PRESETS, type DelayBucket, type TestEventFilter } from "./constants";
import type { EventFilters } from "./schemas";

/** The log's filters as SQL conditions, written as the indexes are (lib/db/schema.ts) so that a query can read them. */

const defined = (conditions: (SQL | undefined)[]) => conditions.filter((c): c is SQL => c !== undefined);

/**
 * The received-time conditions: a preset (relative to now, so a shared "last hour" link stays the last hour) and a
 * custom range.
 */
export function receivedConditions(
  column: AnyPgColumn,
  filters: { received?: keyof typeof RECEIVED_PRESETS; receivedFrom?: string; receivedTo?: string },
  now = Date.now(),
) {
  return [
    filters.received ? gte(column, new Date(now - RECEIVED_PRESETS[filters.received].ms)) : undefined,
    filters.receivedFrom ? gte(column, new Date(filters.receivedFrom)) : undefined,
    filters.receivedTo ? lte(column, new Date(filters.receivedTo)) : undefined,
  ];
}

/** One connection's rows, or every connection's when none or `all` is asked for. */
export function ofConnection(column: AnyPgColumn, connectionId: string | undefined): SQL | undefined {
  return connectionId && connectionId !== ALL_CONNECTIONS ? eq(column, connectionId) : undefined;
}

/** `test=exclude` leaves the console's test events out, `test=only` shows them alone; absent, both. */
function testCondition(filter: TestEventFilter | undefined): SQL | undefined {
  return filter === undefined ? undefined : eq(webhookEvents.isTest, filter === "only");
}

/**
 * Delivery delay (first received − expiresAt) within a bucket, by the same expression the overview's
 * histogram groups by (deliveryDelayBucket), so a bar and the log it opens count the same events. An
 * event without expiresAt has no bucket and so never matches.
 */
function delayCondition(key: DelayBucket | undefined): SQL | undefined {
  const index = DELAY_BUCKETS.findIndex((b) => b.key === key);
  return index < 0
    ? undefined
    : sql`${deliveryDelayBucket(webhookEvents.firstReceivedAt, webhookEvents.expiresAt)} = ${index}`;
}

export function eventConditions(filters: EventFilters): SQL[] {
  const e = webhookEvents;
  return defined([
    filters.type === ALL_TYPES ? undefined : eq(e.type, filters.type),
    ofConnection(e.connectionId, filters.connectionId),
    filters.verificationMethod ? eq(e.verificationMethod, filters.verificationMethod) : undefined,
    filters.devicePlatform ? eq(e.devicePlatform, filters.devicePlatform) : undefined,
    filters.userAuthenticatorId ? eq(e.userAuthenticatorId, filters.userAuthenticatorId) : undefined,
    // A constant-prefix LIKE uses the text_pattern_ops index on user_id.
    filters.userId
      ? filters.userIdMatch === "prefix"
        ? sql`${e.userId} like ${escapeLike(filters.userId) + "%"}`
        : eq(e.userId, filters.userId)
      : undefined,
    ...receivedConditions(e.firstReceivedAt, filters),
    testCondition(filters.test),
    delayCondition(filters.delay),
  ]);
}

/**
 * An expiry filter as two disjoint halves, so that neither walks the log (null without one): events delivered within
 * the window after expiring (nearly all) read the log's indexes in order over the implied received range; those
 * delivered outside it (late, or early by our clock) come from their own small partial index.
 */
export function expiryHalves(filters: EventFilters): { inside: SQL[]; outside: SQL[] } | null {
  const { expiresFrom, expiresTo } = filters;
  if (!expiresFrom && !expiresTo) return null;
  const e = webhookEvents;
  const range = [
    expiresFrom ? gte(e.expiresAt, new Date(expiresFrom)) : undefined,
    expiresTo ? lte(e.expiresAt, new Date(expiresTo)) : undefined,
  ];
  const impliedReceived = [
    expiresFrom ? gte(e.firstReceivedAt, new Date(expiresFrom)) : undefined,
    expiresTo ? lte(e.firstReceivedAt, new Date(Date.parse(expiresTo) + DELIVERY_WINDOW_SECONDS * 1000)) : undefined,
  ];
  return {
    inside: defined([...range, insideDeliveryWindow(e.firstReceivedAt, e.expiresAt), ...impliedReceived]),
    outside: defined([...range, outsideDeliveryWindow(e.firstReceivedAt, e.expiresAt)]),
  };
}
