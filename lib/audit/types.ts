/** Client-safe shapes of the audit log. */
export type AuditEntry = {
  id: number;
  at: string;
  actorEmail: string | null;
  action: string;
  connectionId: string | null;
  connectionName: string | null;
  target: string | null;
  outcome: string;
  httpStatus: number | null;
  requestId: string | null;
};

/** One page of the log, newest first; `nextCursor` asks for the older records, null on the last page. */
export type AuditEntryPage = { entries: AuditEntry[]; nextCursor: string | null };
