import "server-only";
import { and, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import { unionAll, type AnyPgColumn } from "drizzle-orm/pg-core";
import type { Role } from "@/lib/auth/roles";
import { getDb, type Database } from "@/lib/db";
import { escapeLike } from "@/lib/db/like";
import { deliveryDelayBucket, DELIVERY_WINDOW_SECONDS, insideDeliveryWindow, outsideDeliveryWindow } from "@/lib/db/event-expressions";
import { connections, webhookEvents, webhookRejections } from "@/lib/db/schema";
import { decodeCursor, encodeCursor } from "./cursor";
import { ALL_CONNECTIONS, ALL_TYPES, DELAY_BUCKETS, KNOWN_METHODS, KNOWN_PLATFORMS, RECEIVED_PRESETS, type DelayBucket, type TestEventFilter } from "./constants";
import type { EventFilters, RejectionFilters } from "./filters";
import { maskEmail, maskPhone, maskRawBody } from "./masking";
import { isoTimestamp, keysetPages, type KeysetBound } from "./export";
import type { FilterChoices, Page, WebhookEventDetail, WebhookEventSummary, WebhookRejectionSummary } from "./types";

/**
 * The indexes are declared DESC NULLS LAST (drizzle's default); a bare DESC means NULLS FIRST and
 * would not match them, so PostgreSQL would sort the whole table instead of reading the index.
 */
const newestFirst = (column: SQL | AnyPgColumn) => sql`${column} desc nulls last`;
/** The same index read backwards (for a "newer" page): ASC NULLS FIRST is exactly its reverse. */
const oldestFirst = (column: SQL | AnyPgColumn) => sql`${column} asc nulls first`;

type Direction = "older" | "newer";

/** A log's order by (received time, id) in the direction a page is read; a new SQL each call (drizzle rewrites a union's). */
function logOrder(direction: Direction, receivedAt: SQL | AnyPgColumn, id: AnyPgColumn): SQL[] {
  const by = direction === "newer" ? oldestFirst : newestFirst;
  return [by(receivedAt), by(id)];
}

/** The received-time conditions: a preset (relative to now, so a shared "last hour" link stays the last hour) and a custom range. */
function receivedConditions(column: AnyPgColumn, filters: { received?: keyof typeof RECEIVED_PRESETS; receivedFrom?: string; receivedTo?: string }, now = Date.now()) {
  return [
    filters.received ? gte(column, new Date(now - RECEIVED_PRESETS[filters.received].ms)) : undefined,
    filters.receivedFrom ? gte(column, new Date(filters.receivedFrom)) : undefined,
    filters.receivedTo ? lte(column, new Date(filters.receivedTo)) : undefined,
  ];
}

/** The rows past a page's cursor (none without one), and the direction the page reads in. */
export function cursorBound(cursorValue: string | undefined, receivedAt: AnyPgColumn, id: AnyPgColumn): { after: SQL | undefined; direction: Direction } {
  const cursor = cursorValue ? decodeCursor(cursorValue) : null;
  if (!cursor) return { after: undefined, direction: "older" };
  return cursor.direction === "newer"
    ? { after: sql`(${receivedAt}, ${id}) > (${cursor.at}::timestamptz, ${cursor.id})`, direction: "newer" }
    : { after: sql`(${receivedAt}, ${id}) < (${cursor.at}::timestamptz, ${cursor.id})`, direction: "older" };
}

/**
 * One keyset page of a log ordered by (received time, id), newest first whichever way it was read.
 * `run` gets the cursor condition and the direction to read in (see logOrder); it asks for one row more
 * than the page to know whether the page has a next one in that direction.
 */
async function keysetPage<R extends { id: number }>(
  cursorValue: string | undefined,
  limit: number,
  receivedAt: AnyPgColumn,
  id: AnyPgColumn,
  run: (after: SQL | undefined, direction: Direction) => Promise<R[]>,
  receivedOf: (row: R) => Date,
): Promise<{ rows: R[]; nextCursor: string | null; newerCursor: string | null }> {
  const { after, direction } = cursorBound(cursorValue, receivedAt, id);
  const cursor = after !== undefined;
  const newer = direction === "newer";
  const fetched = await run(after, direction);
  const more = fetched.length > limit;
  const rows = fetched.slice(0, limit);
  if (newer) rows.reverse();
  const at = (row: R | undefined, direction: "older" | "newer") => (row ? encodeCursor({ at: receivedOf(row).toISOString(), id: row.id, direction }) : null);
  // Reading older, the rows above exist (the cursor's row at least); reading newer, the rows below do.
  return {
    rows,
    nextCursor: newer ? at(rows.at(-1), "older") : more ? at(rows.at(-1), "older") : null,
    newerCursor: !cursor ? null : newer ? (more ? at(rows[0], "newer") : null) : at(rows[0], "newer"),
  };
}

/** One connection's rows, or every connection's when none or `all` is asked for. */
function ofConnection(column: AnyPgColumn, connectionId: string | undefined): SQL | undefined {
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
  return index < 0 ? undefined : sql`${deliveryDelayBucket(webhookEvents.firstReceivedAt, webhookEvents.expiresAt)} = ${index}`;
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
    ...receivedConditions(e.firstReceivedAt, filters),
    testCondition(filters.test),
    delayCondition(filters.delay),
  ];
  return conditions.filter((c): c is SQL => c !== undefined);
}

/**
 * An expiry filter as two disjoint halves, so that neither walks the log (null without one). Events
 * delivered within the window after expiring (nearly all) were received between the range's start and
 * its end plus the window: that implied received range lets the log's indexes read them in order. Those
 * delivered outside it (late, or early by our clock) come from their own small partial index.
 */
function expiryHalves(filters: EventFilters): { inside: SQL[]; outside: SQL[] } | null {
  const { expiresFrom, expiresTo } = filters;
  if (!expiresFrom && !expiresTo) return null;
  const e = webhookEvents;
  const range = [expiresFrom ? gte(e.expiresAt, new Date(expiresFrom)) : undefined, expiresTo ? lte(e.expiresAt, new Date(expiresTo)) : undefined];
  const impliedReceived = [
    expiresFrom ? gte(e.firstReceivedAt, new Date(expiresFrom)) : undefined,
    expiresTo ? lte(e.firstReceivedAt, new Date(Date.parse(expiresTo) + DELIVERY_WINDOW_SECONDS * 1000)) : undefined,
  ];
  const defined = (conditions: (SQL | undefined)[]) => conditions.filter((c): c is SQL => c !== undefined);
  return {
    inside: defined([...range, insideDeliveryWindow(e.firstReceivedAt, e.expiresAt), ...impliedReceived]),
    outside: defined([...range, outsideDeliveryWindow(e.firstReceivedAt, e.expiresAt)]),
  };
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
 * The query of one page of events: `limit + 1` rows past the cursor condition `after`, in `direction`.
 * With an expiry filter, a union of its two halves, each limited, then ordered and limited as one; the
 * outside half is ordered by an expression no index has, so PostgreSQL reads its few rows from the
 * partial index instead of walking a received-time index in the hope of meeting them.
 */
export function eventPageQuery(db: Database, filters: EventFilters, after: SQL | undefined, direction: Direction) {
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
    select([...conditions, ...halves.outside], logOrder(direction, sql`${e.firstReceivedAt} + interval '0 seconds'`, e.id)),
  )
    .orderBy(...logOrder(direction, e.firstReceivedAt, e.id))
    .limit(filters.limit + 1);
}

/** One page of the log, newest first. */
export async function listWebhookEvents(filters: EventFilters, role: Role): Promise<Page<WebhookEventSummary>> {
  const db = await getDb();
  const page = await keysetPage(filters.cursor, filters.limit, webhookEvents.firstReceivedAt, webhookEvents.id, (after, direction) => eventPageQuery(db, filters, after, direction),
    (row) => row.firstReceivedAt,
  );
  return { items: page.rows.map((row) => toSummary(row, role)), nextCursor: page.nextCursor, newerCursor: page.newerCursor };
}

/**
 * Where an export given a link's cursor starts: right after an "older" cursor's row; for a "newer" one,
 * after the first page the log itself shows for it (`firstPage`, whose items come first; no start
 * when that page was the last).
 */
async function exportStart<T>(cursorValue: string, firstPage: () => Promise<Page<T>>): Promise<{ items: T[]; start?: KeysetBound }> {
  const cursor = decodeCursor(cursorValue);
  if (cursor.direction === "older") return { items: [], start: { at: cursor.at, id: cursor.id } };
  const page = await firstPage();
  if (!page.nextCursor) return { items: page.items };
  const next = decodeCursor(page.nextCursor);
  return { items: page.items, start: { at: next.at, id: next.id } };
}

/** Every connection's name by id, read once for an export and again when a row names one it lacks. */
async function connectionNames(): Promise<Map<string, string> & { reread: () => Promise<void> }> {
  const db = await getDb();
  const names = Object.assign(new Map<string, string>(), {
    reread: async () => {
      for (const c of await db.select({ id: connections.id, name: connections.name }).from(connections)) names.set(c.id, c.name);
    },
  });
  await names.reread();
  return names;
}

/**
 * Every event of the filtered set, newest first, page by page (constant memory: one page at a time,
 * pulled on demand). Made for the export: each page is one short statement (PGlite runs one at a time,
 * so webhook writes interleave with an export's pages), without the page's join (connection names come
 * from one small query) and without re-encoding a cursor (the next page starts exactly after the last
 * row's received time and id); times are rewritten from the driver's text, not parsed into Dates.
 * A link's cursor is honoured as the log's pages read it; a "newer" one reads its first page as the log does.
 */
export async function* iterateWebhookEvents(filters: EventFilters, role: Role, pageSize = 1000): AsyncGenerator<WebhookEventSummary> {
  const db = await getDb();
  const e = webhookEvents;
  const full = piiVisibleTo(role);
  let start: KeysetBound | undefined;
  if (filters.cursor) {
    const first = await exportStart(filters.cursor, () => listWebhookEvents({ ...filters, limit: pageSize }, role));
    yield* first.items;
    if (!first.start) return;
    start = first.start;
  }
  const names = await connectionNames();
  // The driver's text of each time: exact for the keyset, rewritten (not parsed) for the export.
  const text = (column: AnyPgColumn) => sql<string>`${column}`;
  const nullableText = (column: AnyPgColumn) => sql<string | null>`${column}`;
  const columns = {
    id: e.id,
    connectionId: e.connectionId,
    eventId: e.eventId,
    type: e.type,
    tenantId: e.tenantId,
    envelopeTime: text(e.envelopeTime),
    firstReceivedAt: text(e.firstReceivedAt).as("first_received_at"),
    lastReceivedAt: text(e.lastReceivedAt),
    deliveryCount: e.deliveryCount,
    signatureStatus: e.signatureStatus,
    isTest: e.isTest,
    userId: e.userId,
    verificationMethod: e.verificationMethod,
    createdAt: nullableText(e.authenticatorCreatedAt),
    expiresAt: nullableText(e.expiresAt),
    userAuthenticatorId: e.userAuthenticatorId,
    deviceName: e.deviceName,
    devicePlatform: e.devicePlatform,
    email: e.email,
    phoneNumber: e.phoneNumber,
    credentialId: e.credentialId,
    aaguid: e.aaguid,
    credentialName: e.credentialName,
  };
  const halves = expiryHalves(filters);
  const run = (after: KeysetBound | undefined, limit: number) => {
    const conditions = [...eventConditions(filters), after ? sql`(${e.firstReceivedAt}, ${e.id}) < (${after.at}::timestamptz, ${after.id})` : undefined];
    const select = (where: (SQL | undefined)[], order: SQL[]) =>
      db
        .select(columns)
        .from(e)
        .where(and(...where))
        .orderBy(...order)
        .limit(limit);
    if (!halves) return select(conditions, logOrder("older", e.firstReceivedAt, e.id));
    // As eventPageQuery: each half limited, the outside one ordered by an expression no index has.
    return unionAll(
      select([...conditions, ...halves.inside], logOrder("older", e.firstReceivedAt, e.id)),
      select([...conditions, ...halves.outside], logOrder("older", sql`${e.firstReceivedAt} + interval '0 seconds'`, e.id)),
    )
      .orderBy(...logOrder("older", e.firstReceivedAt, e.id))
      .limit(limit);
  };
  for await (const rows of keysetPages(start, pageSize, run, (row) => ({ at: row.firstReceivedAt, id: row.id }))) {
    if (rows.some((row) => !names.has(row.connectionId))) await names.reread();
    for (const row of rows) {
      // The same keys in the same order as listWebhookEvents' items (an NDJSON line is this object).
      const summary: WebhookEventSummary = {
        id: row.id,
        connectionId: row.connectionId,
        connectionName: names.get(row.connectionId) ?? null,
        eventId: row.eventId,
        type: row.type,
        tenantId: row.tenantId,
        envelopeTime: isoTimestamp(row.envelopeTime),
        firstReceivedAt: isoTimestamp(row.firstReceivedAt),
        lastReceivedAt: isoTimestamp(row.lastReceivedAt),
        deliveryCount: row.deliveryCount,
        signatureStatus: row.signatureStatus,
        isTest: row.isTest,
        userId: row.userId,
        verificationMethod: row.verificationMethod,
        createdAt: isoTimestamp(row.createdAt),
        expiresAt: isoTimestamp(row.expiresAt),
        userAuthenticatorId: row.userAuthenticatorId,
        deviceName: row.deviceName,
        devicePlatform: row.devicePlatform,
        email: row.email && !full ? maskEmail(row.email) : row.email,
        phoneNumber: row.phoneNumber && !full ? maskPhone(row.phoneNumber) : row.phoneNumber,
        credentialId: row.credentialId,
        aaguid: row.aaguid,
        credentialName: row.credentialName,
      };
      yield summary;
    }
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
    ...receivedConditions(r.receivedAt, filters),
  ];
  const page = await keysetPage(filters.cursor, filters.limit, r.receivedAt, r.id, (after, direction) =>
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
    items: page.rows.map((row) => ({ ...row, receivedAt: row.receivedAt.toISOString(), headers: row.headers as Record<string, string> })),
    nextCursor: page.nextCursor,
    newerCursor: page.newerCursor,
  };
}

/**
 * Every rejection of the filtered set, page by page (constant memory: one page at a time, pulled on
 * demand), with a turn of the event loop before each page so that PGlite, one statement at a time,
 * serves webhooks in between. Rejections are few (a rate limit bounds them), so the log's own pages do.
 */
export async function* iterateWebhookRejections(filters: RejectionFilters, pageSize = 1000): AsyncGenerator<WebhookRejectionSummary> {
  let cursor: string | undefined = filters.cursor;
  for (;;) {
    await new Promise((resolve) => setImmediate(resolve));
    const page = await listWebhookRejections({ ...filters, cursor, limit: pageSize });
    yield* page.items;
    if (!page.nextCursor) return;
    cursor = page.nextCursor;
  }
}

/**
 * Neither column has an index (a skip scan would need one), and the table is meant to hold a million
 * rows, so a DISTINCT over it per page view is out. Instead the choices are the documented values plus
 * those of the newest RECENT_ROWS events (a bounded read of the received-time index), cached in-process
 * for CHOICES_TTL_MS: a value only seen in older events can still be typed into the link.
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
  const merge = (known: readonly string[], seen: (string | null)[]) => [...new Set([...known, ...seen.filter((v): v is string => !!v).sort()])];
  return { verificationMethods: merge(KNOWN_METHODS, rows.map((r) => r.method)), devicePlatforms: merge(KNOWN_PLATFORMS, rows.map((r) => r.platform)) };
}
