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
