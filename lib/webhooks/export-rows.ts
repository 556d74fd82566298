import "server-only";

import { and, sql, type SQL } from "drizzle-orm";
import { unionAll, type AnyPgColumn } from "drizzle-orm/pg-core";

import type { Role } from "@/lib/auth/roles";
import { getDb } from "@/lib/db";
import { connections, webhookEvents } from "@/lib/db/schema";

import { eventConditions, expiryHalves } from "./conditions";
import { isoTimestamp, keysetPages, type KeysetBound } from "./export";
import { maskEmail, maskPhone } from "./masking";
import { exportStart, logOrder } from "./paging";
import type { EventFilters, RejectionFilters } from "./schemas";
import type { WebhookEventSummary, WebhookRejectionSummary } from "./types";
import { listWebhookEvents, listWebhookRejections, piiVisibleTo } from "./webhooks";

/** The rows of an export (./export.ts writes them): every event or rejection of a filtered set, read page by page. */

/** Every connection's name by id, read once for an export and again when a row names one it lacks. */
async function connectionNames(): Promise<Map<string, string> & { reread: () => Promise<void> }> {
  const db = await getDb();
  const names = Object.assign(new Map<string, string>(), {
    reread: async () => {
      for (const c of await db.select({ id: connections.id, name: connections.name }).from(connections))
        names.set(c.id, c.name);
    },
  });
  await names.reread();
  return names;
}

/**
 * Every event of the filtered set, newest first, one page at a time on demand: each page is one short statement
 * (PGlite interleaves webhook writes with them), with no join and no cursor re-encoded, and times rewritten from the
 * driver's text. A link's cursor is honoured as the log's pages read it.
 */
export async function* iterateWebhookEvents(
  filters: EventFilters,
  role: Role,
  pageSize = 1000,
): AsyncGenerator<WebhookEventSummary> {
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
    const conditions = [
      ...eventConditions(filters),
      after ? sql`(${e.firstReceivedAt}, ${e.id}) < (${after.at}::timestamptz, ${after.id})` : undefined,
    ];
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
      select(
        [...conditions, ...halves.outside],
        logOrder("older", sql`${e.firstReceivedAt} + interval '0 seconds'`, e.id),
      ),
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

/**
 * Every rejection of the filtered set, page by page (constant memory: one page at a time, pulled on
 * demand), with a turn of the event loop before each page so that PGlite, one statement at a time,
 * serves webhooks in between. Rejections are few (a rate limit bounds them), so the log's own pages do.
 */
export async function* iterateWebhookRejections(
  filters: RejectionFilters,
  pageSize = 1000,
): AsyncGenerator<WebhookRejectionSummary> {
  let cursor: string | undefined = filters.cursor;
  for (;;) {
    await new Promise((resolve) => setImmediate(resolve));
    const page = await listWebhookRejections({ ...filters, cursor, limit: pageSize });
    yield* page.items;
    if (!page.nextCursor) return;
    cursor = page.nextCursor;
  }
}
