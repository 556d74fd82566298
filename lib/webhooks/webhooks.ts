import "server-only";

import { and, eq, or, sql, type SQL } from "drizzle-orm";
import { unionAll } from "drizzle-orm/pg-core";

import type { Role } from "@/lib/auth/roles";
import { getDb, type Database } from "@/lib/db";
import { connections, webhookEvents, webhookRejections } from "@/lib/db/schema";

import { eventConditions, expiryHalves, ofConnection, receivedConditions } from "./conditions";
import { KNOWN_METHODS, KNOWN_PLATFORMS } from "./constants";
import type { CursorDirection } from "./cursor";
import { forwardingOf } from "./forwarding";
import { maskEmail, maskPhone, maskRawBody } from "./masking";
import { keysetPage, logOrder, newestFirst } from "./paging";
import type { EventFilters, RejectionFilters } from "./schemas";
import type {
  FilterChoices,
  LoggedEvent,
  Page,
  WebhookEventDetail,
  WebhookEventSummary,
  WebhookRejectionSummary,
} from "./types";

/**
 * What forwarding (lib/destinations) uses: the service's signature, a signal when storing queued
 * deliveries, and the count of events received (to give way to a flood of them).
 */
export { signatureHeader } from "./signature";
export { eventsReceived, onDeliveriesQueued } from "./store";
export { parseEventFilters } from "./filters";

/**
 * The condition on webhook_events (unqualified columns) that the log's filters make, its expiry filter
 * included, limited to one connection and to the service's own events: what a replay (lib/destinations)
 * queues, exactly what the log lists for those filters but the console's test events.
 */
export function replayCondition(filters: EventFilters, connectionId: string): SQL {
  const halves = expiryHalves(filters);
  return and(
    ...eventConditions({ ...filters, connectionId }),
    eq(webhookEvents.isTest, false),
    halves ? or(and(...halves.inside), and(...halves.outside)) : undefined,
  )!;
}

/**
 * The webhook log, as the page and the API read it: a page of events or rejections (filters as SQL in
 * ./conditions.ts, keyset pages in ./paging.ts), one event in detail, and the filter bar's choices.
 * Personal data is masked for support here. The export reads the same sets in ./export-rows.ts.
 */

const eventColumns = {
  id: webhookEvents.id,
  connectionId: webhookEvents.connectionId,
  connectionName: connections.name,
  eventId: webhookEvents.eventId,
  type: webhookEvents.type,
  tenantId: webhookEvents.tenantId,
  envelopeTime: webhookEvents.envelopeTime,
  firstReceivedAt: webhookEvents.firstReceivedAt,
  lastReceivedAt: webhookEvents.lastReceivedAt,
  deliveryCount: webhookEvents.deliveryCount,
  signatureStatus: webhookEvents.signatureStatus,
  isTest: webhookEvents.isTest,
  userId: webhookEvents.userId,
  verificationMethod: webhookEvents.verificationMethod,
  createdAt: webhookEvents.authenticatorCreatedAt,
  expiresAt: webhookEvents.expiresAt,
  userAuthenticatorId: webhookEvents.userAuthenticatorId,
  deviceName: webhookEvents.deviceName,
  devicePlatform: webhookEvents.devicePlatform,
  email: webhookEvents.email,
  phoneNumber: webhookEvents.phoneNumber,
  credentialId: webhookEvents.credentialId,
  aaguid: webhookEvents.aaguid,
  credentialName: webhookEvents.credentialName,
};

type DateFields = "envelopeTime" | "firstReceivedAt" | "lastReceivedAt" | "createdAt" | "expiresAt";
type EventRow = Omit<WebhookEventSummary, DateFields> & {
  envelopeTime: Date;
  firstReceivedAt: Date;
  lastReceivedAt: Date;
  createdAt: Date | null;
  expiresAt: Date | null;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Support sees email and phone masked; admins see them in full. */
export function piiVisibleTo(role: Role): boolean {
  return role === "admin";
}

function toSummary(row: EventRow, role: Role): WebhookEventSummary {
  const full = piiVisibleTo(role);
  return {
    ...row,
    envelopeTime: row.envelopeTime.toISOString(),
    firstReceivedAt: row.firstReceivedAt.toISOString(),
    lastReceivedAt: row.lastReceivedAt.toISOString(),
    createdAt: iso(row.createdAt),
    expiresAt: iso(row.expiresAt),
    email: row.email && !full ? maskEmail(row.email) : row.email,
    phoneNumber: row.phoneNumber && !full ? maskPhone(row.phoneNumber) : row.phoneNumber,
  };
}

/**
 * The query of one page: `limit + 1` rows past the cursor condition `after`, in `direction`. With an expiry filter,
 * a union of its two halves, each limited; the outside half is ordered by an expression no index has, so PostgreSQL
 * reads its few rows from the partial index instead of walking a received-time index.
 */
export function eventPageQuery(
  db: Database,
  filters: EventFilters,
  after: SQL | undefined,
  direction: CursorDirection,
) {
  const e = webhookEvents;
  const conditions = [...eventConditions(filters), after];
  const select = (where: (SQL | undefined)[], order: SQL[]) =>
    db
      .select(eventColumns)
      .from(e)
      .leftJoin(connections, eq(connections.id, e.connectionId))
      .where(and(...where))
      .orderBy(...order)
      .limit(filters.limit + 1);
  const halves = expiryHalves(filters);
  if (!halves) return select(conditions, logOrder(direction, e.firstReceivedAt, e.id));
  return unionAll(
    select([...conditions, ...halves.inside], logOrder(direction, e.firstReceivedAt, e.id)),
    select(
      [...conditions, ...halves.outside],
      logOrder(direction, sql`${e.firstReceivedAt} + interval '0 seconds'`, e.id),
    ),
  )
    .orderBy(...logOrder(direction, e.firstReceivedAt, e.id))
    .limit(filters.limit + 1);
}

/** One page of the log, newest first, with where each event's forwards stand (one more query for the page). */
export async function listWebhookEvents(filters: EventFilters, role: Role): Promise<Page<LoggedEvent>> {
  const db = await getDb();
  const page = await keysetPage(
    filters.cursor,
    filters.limit,
    webhookEvents.firstReceivedAt,
    webhookEvents.id,
    (after, direction) => eventPageQuery(db, filters, after, direction),
    (row) => row.firstReceivedAt,
  );
  return {
    items: await forwardingOf(
      db,
      page.rows.map((row) => toSummary(row, role)),
    ),
    nextCursor: page.nextCursor,
    newerCursor: page.newerCursor,
  };
}

export async function getWebhookEvent(id: number, role: Role): Promise<WebhookEventDetail | null> {
  const db = await getDb();
  const [row] = await db
    .select({ ...eventColumns, rawBody: webhookEvents.rawBody })
    .from(webhookEvents)
    .leftJoin(connections, eq(connections.id, webhookEvents.connectionId))
    .where(eq(webhookEvents.id, id))
    .limit(1);
  if (!row) return null;
  const { rawBody, ...rest } = row;
  const full = piiVisibleTo(role);
  return {
    ...toSummary(rest, role),
    rawBody: full ? rawBody : maskRawBody(rawBody),
    piiMasked: !full,
  };
}

export async function listWebhookRejections(filters: RejectionFilters): Promise<Page<WebhookRejectionSummary>> {
  const db = await getDb();
  const r = webhookRejections;
  const conditions: (SQL | undefined)[] = [
    ofConnection(r.connectionId, filters.connectionId),
    filters.reason ? eq(r.reason, filters.reason) : undefined,
    ...receivedConditions(r.receivedAt, filters),
  ];
  const page = await keysetPage(
    filters.cursor,
    filters.limit,
    r.receivedAt,
    r.id,
    (after, direction) =>
      db
        .select({
          id: r.id,
          connectionId: r.connectionId,
          connectionName: connections.name,
          receivedAt: r.receivedAt,
          status: r.status,
          reason: r.reason,
          detail: r.detail,
          eventId: r.eventId,
          bodySha256: r.bodySha256,
          headers: r.headers,
        })
        .from(r)
        .leftJoin(connections, eq(connections.id, r.connectionId))
        .where(and(...conditions, after))
        .orderBy(...logOrder(direction, r.receivedAt, r.id))
        .limit(filters.limit + 1),
    (row) => row.receivedAt,
  );
  return {
    items: page.rows.map((row) => ({
      ...row,
      receivedAt: row.receivedAt.toISOString(),
      headers: row.headers as Record<string, string>,
    })),
    nextCursor: page.nextCursor,
    newerCursor: page.newerCursor,
  };
}

/**
 * Neither column has an index and the table may hold a million rows, so no DISTINCT per page view: the choices are
 * the documented values plus those of the newest RECENT_ROWS events, cached for CHOICES_TTL_MS (an older value can
 * still be typed into the link).
 */
const RECENT_ROWS = 5000;
const CHOICES_TTL_MS = 60_000;
let choicesCache: { at: number; value: Promise<FilterChoices> } | null = null;

export function listFilterChoices(now = Date.now()): Promise<FilterChoices> {
  if (choicesCache && now - choicesCache.at < CHOICES_TTL_MS) return choicesCache.value;
  const value = readFilterChoices();
  choicesCache = { at: now, value };
  // A failed read is not cached: the next page view tries again.
  value.catch(() => {
    if (choicesCache?.value === value) choicesCache = null;
  });
  return value;
}

async function readFilterChoices(): Promise<FilterChoices> {
  const db = await getDb();
  const e = webhookEvents;
  const recent = db
    .select({ method: e.verificationMethod, platform: e.devicePlatform })
    .from(e)
    .orderBy(newestFirst(e.firstReceivedAt), newestFirst(e.id))
    .limit(RECENT_ROWS)
    .as("recent");
  const rows = await db.selectDistinct({ method: recent.method, platform: recent.platform }).from(recent);
  const merge = (known: readonly string[], seen: (string | null)[]) => [
    ...new Set([...known, ...seen.filter((v): v is string => !!v).sort()]),
  ];
  return {
    verificationMethods: merge(
      KNOWN_METHODS,
      rows.map((r) => r.method),
    ),
    devicePlatforms: merge(
      KNOWN_PLATFORMS,
      rows.map((r) => r.platform),
    ),
  };
}

/** The nil UUID: the tenant's id is learned from its events, and none has arrived yet. */
export const PLACEHOLDER_TENANT_ID = "00000000-0000-0000-0000-000000000000";

/**
 * The tenant's id, for a test event: from an event it sent (every event of a connection carries the same), the
 * placeholder before the first.
 */
export async function testEventTenantId(connectionId: string): Promise<string> {
  const db = await getDb();
  const [row] = await db
    .select({ tenantId: webhookEvents.tenantId })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.connectionId, connectionId), eq(webhookEvents.isTest, false)))
    .limit(1);
  return row?.tenantId ?? PLACEHOLDER_TENANT_ID;
}
