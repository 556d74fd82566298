import "server-only";

import { and, desc, eq, gte, ilike, isNotNull, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";

import { getDb, type Executor, type Transaction } from "@/lib/db";
import { containsAny, escapeLike } from "@/lib/db/like";
import { auditLog } from "@/lib/db/schema";

import type { AuditAction, AuditFilter } from "./schemas";
import type { AuditEntryPage, AuditRepeats } from "./types";

export type AuditActor = { id: string; email: string } | { id: null; email: string | null };

export type AuditRecord = {
  actor: AuditActor;
  action: AuditAction;
  outcome: "success" | "failure" | "denied";
  connection?: { id: string; name: string };
  target?: string;
  httpStatus?: number;
  requestId?: string;
  details?: Record<string, unknown>;
};

/**
 * Appends one record. The app only ever inserts (but for the repeat count of recordRepeatedAudit, and
 * an end user's erasure, redactAuditRecords): records are never deleted through it.
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

/** Advisory locks in their own key space (two int4 keys), apart from the throttle's and the migration's. */
const REPEATED_AUDIT_LOCK_CLASS = 724_117_101;

/** What recordRepeatedAudit keeps in `details` beside the record's own: how many, and the last when. */
const repeatsSchema = z.object({ count: z.number().int().positive(), lastAt: z.string() });

/**
 * For what an unauthenticated caller can repeat (a refused sign-in): one record per (action, actor email, target)
 * per window of `windowMs`, counting the repeats in its details (`count`, `lastAt`), so a flood cannot grow the log.
 * Timed at the first repeat; a lock on that key within `tx` keeps two at once to one record.
 */
export async function recordRepeatedAudit(
  record: Pick<AuditRecord, "action" | "outcome" | "target" | "details"> & {
    actor: { id: null; email: string | null };
  },
  window: { ms: number; now: Date },
  tx: Transaction,
): Promise<void> {
  const start = new Date(Math.floor(window.now.getTime() / window.ms) * window.ms);
  const end = new Date(start.getTime() + window.ms);
  const key = JSON.stringify([record.action, record.actor.email, record.target ?? null]);
  await tx.execute(sql`select pg_advisory_xact_lock(${REPEATED_AUDIT_LOCK_CLASS}, hashtext(${key}))`);
  const [existing] = await tx
    .select({ id: auditLog.id, details: auditLog.details })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, record.action),
        record.actor.email === null ? isNull(auditLog.actorEmail) : eq(auditLog.actorEmail, record.actor.email),
        record.target === undefined ? isNull(auditLog.target) : eq(auditLog.target, record.target),
        gte(auditLog.at, start),
        lt(auditLog.at, end),
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(1);
  const lastAt = window.now.toISOString();
  if (existing) {
    const count = repeatsSchema.safeParse(existing.details).data?.count ?? 1;
    const details = { ...(existing.details as Record<string, unknown>), ...record.details, count: count + 1, lastAt };
    await tx.update(auditLog).set({ details }).where(eq(auditLog.id, existing.id));
    return;
  }
  await tx.insert(auditLog).values({
    at: window.now,
    actorId: null,
    actorEmail: record.actor.email,
    action: record.action,
    outcome: record.outcome,
    target: record.target,
    requestId: crypto.randomUUID(),
    details: { ...record.details, count: 1, lastAt },
  });
}

/** Every string in a record's details, at any depth, passed through `redact`; keys and other values as they are. */
function redactDetails(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactDetails(item, redact));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactDetails(item, redact)]));
  return value;
}

type Redaction = { values: readonly string[]; connectionId: string | null; redact: (text: string) => string };

/**
 * The records of the connection (null: of every connection, never the console's own) that `redact`
 * changes, as it changes them: their target and every string of their details. Only those that hold
 * one of `values` as written are read.
 */
export async function auditRedactions(executor: Executor, { values, connectionId, redact }: Redaction) {
  const scope = connectionId === null ? isNotNull(auditLog.connectionId) : eq(auditLog.connectionId, connectionId);
  const holds = (text: SQL) => containsAny(sql`coalesce(${text}, '')`, values);
  const rows = await executor
    .select({ id: auditLog.id, target: auditLog.target, details: auditLog.details })
    .from(auditLog)
    .where(and(scope, sql`(${holds(sql`${auditLog.target}`)} or ${holds(sql`${auditLog.details}::text`)})`));
  return rows
    .map((row) => ({
      row,
      target: row.target === null ? null : redact(row.target),
      details: redactDetails(row.details, redact),
    }))
    .filter(
      ({ row, target, details }) => target !== row.target || JSON.stringify(details) !== JSON.stringify(row.details),
    )
    .map(({ row, target, details }) => ({ id: row.id, target, details }));
}

/**
 * The one change to written records besides a repeat count: erasing an end user's data (lib/erasure)
 * rewrites what names them (a lookup's target, a replay's filters), in the erasure's transaction.
 * Answers how many records it rewrote.
 */
export async function redactAuditRecords(tx: Transaction, redaction: Redaction): Promise<number> {
  const redactions = await auditRedactions(tx, redaction);
  for (const { id, target, details } of redactions)
    await tx.update(auditLog).set({ target, details }).where(eq(auditLog.id, id));
  return redactions.length;
}

/** The repeat count of a record written by recordRepeatedAudit, null for any other. */
function repeatsOf(details: unknown): AuditRepeats | null {
  return repeatsSchema.safeParse(details).data ?? null;
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

/** `withConsoleWide`: a connection's records and the console's own (sign-ins, team), as the audit page shows them. */
export async function listAuditEntries(
  filter: AuditFilter,
  pageSize = AUDIT_PAGE_SIZE,
  { withConsoleWide = false } = {},
): Promise<AuditEntryPage> {
  const conditions: SQL[] = [];
  if (filter.actor) conditions.push(ilike(auditLog.actorEmail, `%${escapeLike(filter.actor)}%`));
  if (filter.action) conditions.push(eq(auditLog.action, filter.action));
  const ofConnection = filter.connectionId ? eq(auditLog.connectionId, filter.connectionId) : undefined;
  if (ofConnection) conditions.push(withConsoleWide ? or(ofConnection, isNull(auditLog.connectionId))! : ofConnection);
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
      repeats: repeatsOf(r.details),
    })),
    nextCursor: rows.length > pageSize && last ? encodeCursor(last.id) : null,
  };
}
