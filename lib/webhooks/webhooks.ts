import "server-only";
import { and, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Role } from "@/lib/auth/roles";
import { getDb } from "@/lib/db";
import { escapeLike } from "@/lib/db/like";
import { connections, webhookEvents, webhookRejections } from "@/lib/db/schema";
import { decodeCursor, encodeCursor } from "./cursor";
import { ALL_CONNECTIONS, ALL_TYPES, type EventFilters, type RejectionFilters } from "./filters";
import { maskEmail, maskPhone, maskRawBody } from "./masking";
import type { Page, WebhookEventDetail, WebhookEventSummary, WebhookRejectionSummary } from "./types";

/**
 * The indexes are declared DESC NULLS LAST (drizzle's default); a bare DESC means NULLS FIRST and
 * would not match them, so PostgreSQL would sort the whole table instead of reading the index.
 */
const newestFirst = (column: SQL | AnyPgColumn) => sql`${column} desc nulls last`;

/** One connection's rows, or every connection's when none or `all` is asked for. */
function ofConnection(column: AnyPgColumn, connectionId: string | undefined): SQL | undefined {
  return connectionId && connectionId !== ALL_CONNECTIONS ? eq(column, connectionId) : undefined;
}

function eventConditions(filters: EventFilters): SQL[] {
  const e = webhookEvents;
  const conditions: (SQL | undefined)[] = [
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
    filters.receivedFrom ? gte(e.firstReceivedAt, new Date(filters.receivedFrom)) : undefined,
    filters.receivedTo ? lte(e.firstReceivedAt, new Date(filters.receivedTo)) : undefined,
    filters.expiresFrom ? gte(e.expiresAt, new Date(filters.expiresFrom)) : undefined,
    filters.expiresTo ? lte(e.expiresAt, new Date(filters.expiresTo)) : undefined,
  ];
  return conditions.filter((c): c is SQL => c !== undefined);
}

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

/** One page of the log, newest first. */
export async function listWebhookEvents(filters: EventFilters, role: Role): Promise<Page<WebhookEventSummary>> {
  const db = await getDb();
  const conditions = eventConditions(filters);
  if (filters.cursor) {
    const cursor = decodeCursor(filters.cursor);
    conditions.push(sql`(${webhookEvents.firstReceivedAt}, ${webhookEvents.id}) < (${cursor.at}::timestamptz, ${cursor.id})`);
  }
  const rows = await db
    .select(eventColumns)
    .from(webhookEvents)
    .leftJoin(connections, eq(connections.id, webhookEvents.connectionId))
    .where(and(...conditions))
    .orderBy(newestFirst(webhookEvents.firstReceivedAt), newestFirst(webhookEvents.id))
    .limit(filters.limit + 1);
  const page = rows.slice(0, filters.limit);
  const last = page.at(-1);
  return {
    items: page.map((row) => toSummary(row, role)),
    nextCursor: rows.length > filters.limit && last ? encodeCursor({ at: last.firstReceivedAt.toISOString(), id: last.id }) : null,
  };
}

/** Every event of the filtered set, page by page (constant memory: one page at a time, pulled on demand). */
export async function* iterateWebhookEvents(filters: EventFilters, role: Role, pageSize = 1000): AsyncGenerator<WebhookEventSummary> {
  let cursor: string | undefined = filters.cursor;
  for (;;) {
    const page = await listWebhookEvents({ ...filters, cursor, limit: pageSize }, role);
    yield* page.items;
    if (!page.nextCursor) return;
    cursor = page.nextCursor;
  }
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
    filters.receivedFrom ? gte(r.receivedAt, new Date(filters.receivedFrom)) : undefined,
    filters.receivedTo ? lte(r.receivedAt, new Date(filters.receivedTo)) : undefined,
  ];
  if (filters.cursor) {
    const cursor = decodeCursor(filters.cursor);
    conditions.push(sql`(${r.receivedAt}, ${r.id}) < (${cursor.at}::timestamptz, ${cursor.id})`);
  }
  const rows = await db
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
    .where(and(...conditions))
    .orderBy(newestFirst(r.receivedAt), newestFirst(r.id))
    .limit(filters.limit + 1);
  const page = rows.slice(0, filters.limit);
  const last = page.at(-1);
  return {
    items: page.map((row) => ({ ...row, receivedAt: row.receivedAt.toISOString(), headers: row.headers as Record<string, string> })),
    nextCursor: rows.length > filters.limit && last ? encodeCursor({ at: last.receivedAt.toISOString(), id: last.id }) : null,
  };
}

export async function* iterateWebhookRejections(filters: RejectionFilters, pageSize = 1000): AsyncGenerator<WebhookRejectionSummary> {
  let cursor: string | undefined = filters.cursor;
  for (;;) {
    const page = await listWebhookRejections({ ...filters, cursor, limit: pageSize });
    yield* page.items;
    if (!page.nextCursor) return;
    cursor = page.nextCursor;
  }
}
