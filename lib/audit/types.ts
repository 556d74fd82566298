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
  /** For a record that counts repeats (a refused sign-in): how many in its window, and the last one's time. */
  repeats: AuditRepeats | null;
};

export type AuditRepeats = { count: number; lastAt: string };

/** One page of the log, newest first; `nextCursor` asks for the older records, null on the last page. */
export type AuditEntryPage = { entries: AuditEntry[]; nextCursor: string | null };
