import "server-only";

import { sql } from "drizzle-orm";

import { escapeLike } from "@/lib/db/like";
import { webhookEvents, webhookRejections } from "@/lib/db/schema";
import { DEFAULT_EVENT_TYPE, TEST_EVENT_ID_PREFIX } from "@/lib/webhooks/constants";

/**
 * What the overview counts: real events and real deliveries only. A test event the console sent
 * itself is stored with is_test; a refused test delivery is known by its event id's prefix.
 */
export const realEvent = sql`not ${webhookEvents.isTest}`;
/**
 * Real authenticator.expired events, the charts' rows: written with a literal (not a parameter), so the
 * planner sees that webhook_events_expired_hour_idx's predicate holds and reads that index.
 */
export const realExpiredEvent = sql`${webhookEvents.type} = ${sql.raw(`'${DEFAULT_EVENT_TYPE}'`)} and ${realEvent}`;
export const realRejection = sql`(${webhookRejections.eventId} is null or ${webhookRejections.eventId} not like ${escapeLike(TEST_EVENT_ID_PREFIX) + "%"})`;

/** A timestamptz as the overview's types carry it. */
export const iso = (value: Date | string | null | undefined): string | null =>
  value == null ? null : new Date(value).toISOString();
