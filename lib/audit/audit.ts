import "server-only";
import { and, desc, eq, gte, ilike, lt, lte, type SQL } from "drizzle-orm";
import { getDb, type Executor } from "@/lib/db";
import { escapeLike } from "@/lib/db/like";
import { auditLog } from "@/lib/db/schema";
import type { AuditFilter } from "./schemas";
import type { AuditEntryPage } from "./types";

export type AuditActor = { id: string; email: string } | { id: null; email: string | null };

export type AuditRecord = {
  actor: AuditActor;
  action: string;
  outcome: "success" | "failure" | "denied";
  connection?: { id: string; name: string };
  target?: string;
  httpStatus?: number;
  requestId?: string;
  details?: Record<string, unknown>;
};

/**
 * Appends one record. The app only ever inserts: records are never edited or deleted through it.
 * A change of ours passes its transaction, so the change and its record are written together or not at all.
 */
export async function recordAudit(record: AuditRecord, executor?: Executor): Promise<void> {
  const db = executor ?? (await getDb());
  await db.insert(auditLog).values({
    actorId: record.actor.id,
    actorEmail: record.actor.email,
    action: record.action,
    outcome: record.outcome,
    connectionId: record.connection?.id,
    connectionName: record.connection?.name,
    target: record.target,
    httpStatus: record.httpStatus,
    requestId: record.requestId ?? crypto.randomUUID(),
    details: record.details,
  });
}

export const AUDIT_PAGE_SIZE = 50;

/**
 * Keyset cursor on the id, newest first. Ids only grow (bigserial, append-only), so the order is the
 * order of recording and stays stable while new records arrive; the database's microsecond times
 * would not survive a round trip through a JavaScript Date.
 */
function encodeCursor(id: number): string {
  return Buffer.from(String(id)).toString("base64url");
}

function decodeCursor(cursor: string): number | undefined {
  const n = Number(Buffer.from(cursor, "base64url").toString("utf8"));
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

export async function listAuditEntries(filter: AuditFilter, pageSize = AUDIT_PAGE_SIZE): Promise<AuditEntryPage> {
  const conditions: SQL[] = [];
  if (filter.actor) conditions.push(ilike(auditLog.actorEmail, `%${escapeLike(filter.actor)}%`));
  if (filter.action) conditions.push(eq(auditLog.action, filter.action));
  if (filter.connectionId) conditions.push(eq(auditLog.connectionId, filter.connectionId));
  if (filter.from) conditions.push(gte(auditLog.at, new Date(filter.from)));
  if (filter.to) conditions.push(lte(auditLog.at, new Date(filter.to)));
  const cursor = filter.cursor ? decodeCursor(filter.cursor) : undefined;
  if (cursor) conditions.push(lt(auditLog.id, cursor));

  const db = await getDb();
  const rows = await db
    .select()
    .from(auditLog)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(pageSize + 1);
  const page = rows.slice(0, pageSize);
  const last = page[page.length - 1];
  return {
    entries: page.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      actorEmail: r.actorEmail,
      action: r.action,
      connectionId: r.connectionId,
      connectionName: r.connectionName,
      target: r.target,
      outcome: r.outcome,
      httpStatus: r.httpStatus,
      requestId: r.requestId,
    })),
    nextCursor: rows.length > pageSize && last ? encodeCursor(last.id) : null,
  };
}
