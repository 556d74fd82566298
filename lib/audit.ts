import "server-only";
import { getDb, type Executor } from "@/lib/db";
import { auditLog } from "@/lib/db/schema";

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
