import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/card";
import { Table, TableHead, TableSkeleton, Td } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { describeAuditOutcome, shortRequestId } from "@/lib/audit/display";
import { auditFilterQuery, type AuditFilter } from "@/lib/audit/schemas";
import type { AuditEntry, AuditEntryPage } from "@/lib/audit/types";

const columns = ["Time", "Actor", "Action", "Connection", "Target", "Outcome", "Request id"];

const outcomeTone = { success: "success", failure: "danger", denied: "warning" } as const;

function OutcomeBadge({ entry }: { entry: AuditEntry }) {
  const { text, title } = describeAuditOutcome(entry);
  return (
    <Badge tone={outcomeTone[entry.outcome as keyof typeof outcomeTone] ?? "neutral"} title={title}>
      {text}
    </Badge>
  );
}


const pageLinkClass = "rounded-md px-3 py-2 text-sm font-medium text-indigo-700 ring-1 ring-slate-300";

/** Back to the newest records, or on to older ones, keeping the filter. */
function AuditPaging({ filter, nextCursor }: { filter: AuditFilter; nextCursor: string | null }) {
  const pageHref = (cursor: string | undefined) => `/audit?${auditFilterQuery({ ...filter, cursor })}`;
  return (
    <nav aria-label="Audit pages" className="mt-4 flex gap-2">
      {filter.cursor ? (
        <Link href={pageHref(undefined)} className={pageLinkClass}>
          Newest
        </Link>
      ) : null}
      {nextCursor ? (
        <Link href={pageHref(nextCursor)} className={pageLinkClass}>
          Older
        </Link>
      ) : null}
    </nav>
  );
}

/** One page of the audit records matching `filter`, newest first, and its paging; streams in when the query answers. */
export async function AuditTable({ filter, page: pending }: { filter: AuditFilter; page: Promise<AuditEntryPage> }) {
  const { entries, nextCursor } = await pending;
  return (
    <>
      {entries.length === 0 ? (
        <EmptyState title="No audit records match">Change or clear the filters.</EmptyState>
      ) : (
        <Table caption="Audit records, newest first">
          <TableHead columns={columns} />
          <tbody className="divide-y divide-slate-100">
            {entries.map((e) => (
              <tr key={e.id}>
                <Td>
                  <Time iso={e.at} />
                </Td>
                <Td>{e.actorEmail ?? "—"}</Td>
                <Td>
                  <code>{e.action}</code>
                </Td>
                <Td>{e.connectionName ?? "—"}</Td>
                <Td>{e.target ?? "—"}</Td>
                <Td>
                  <OutcomeBadge entry={e} />
                </Td>
                <Td>
                  {e.requestId ? (
                    <code className="font-mono text-xs text-slate-500" title={e.requestId}>
                      {shortRequestId(e.requestId)}
                    </code>
                  ) : (
                    "—"
                  )}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <AuditPaging filter={filter} nextCursor={nextCursor} />
    </>
  );
}

/** The table's shape while the records are read: its columns and a screenful of rows. */
export function AuditTableSkeleton() {
  return <TableSkeleton columns={columns} rows={12} />;
}
