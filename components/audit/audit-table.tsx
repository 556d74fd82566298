import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Link } from "@/components/ui/link";
import { CardField, Table, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { describeAuditOutcome, shortRequestId } from "@/lib/audit/display";
import { auditFilterQuery, type AuditFilter } from "@/lib/audit/schemas";
import type { AuditEntry, AuditEntryPage } from "@/lib/audit/types";

import { auditColumns } from "./loading-shapes";

/**
 * The table (from 1280 px) fits with no sideways scroll: headings and times wrap, an email breaks only
 * before its @ and an action only after a dot (never mid-word), and free text (a connection's name, a
 * target user id of up to 255 characters) anywhere.
 */
const wraps = "whitespace-normal! [overflow-wrap:anywhere]";
const breaksAt = (text: string, at: "@" | ".") =>
  text.split(at).map((part, i, all) =>
    at === "@" ? (
      <span key={i}>
        {i > 0 ? <wbr /> : null}
        {i > 0 ? "@" : ""}
        {part}
      </span>
    ) : (
      <span key={i}>
        {part}
        {i < all.length - 1 ? "." : ""}
        {i < all.length - 1 ? <wbr /> : null}
      </span>
    ),
  );

/** A request id in the table: its start, the whole on hover, and a button that copies the whole. */
function RequestId({ id }: { id: string }) {
  return (
    <span className="flex items-center gap-1">
      <code className="font-mono text-xs text-slate-600 dark:text-slate-400" title={id} data-testid="request-id">
        {shortRequestId(id)}
      </code>
      <CopyButton text={id} label={`Copy request id ${id}`} iconOnly className="px-1.5" />
    </span>
  );
}

const outcomeTone = { success: "success", failure: "danger", denied: "warning" } as const;

function OutcomeBadge({ entry }: { entry: AuditEntry }) {
  const { text, title } = describeAuditOutcome(entry);
  return (
    <Badge tone={outcomeTone[entry.outcome as keyof typeof outcomeTone] ?? "neutral"} title={title}>
      {text}
    </Badge>
  );
}

const pageLinkClass =
  "rounded-md px-3 py-2 text-sm font-medium text-indigo-700 ring-1 ring-slate-300 dark:text-indigo-300 dark:ring-slate-600";

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
        <>
          {/* Seven columns need a wide window: below `xl` (1280 px) each record is a card. */}
          <ul aria-label="Audit records, newest first" className="space-y-3 xl:hidden">
            {entries.map((e) => (
              <li
                key={e.id}
                className="rounded-lg bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800"
              >
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <code className="font-medium [overflow-wrap:anywhere] text-slate-900 dark:text-slate-100">
                    {e.action}
                  </code>
                  <OutcomeBadge entry={e} />
                </div>
                <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1.5">
                  <CardField term="Time">
                    <Time iso={e.at} />
                  </CardField>
                  <CardField term="Actor" className="[overflow-wrap:anywhere]">
                    {e.actorEmail ?? "—"}
                  </CardField>
                  <CardField term="Connection" className="[overflow-wrap:anywhere]">
                    {e.connectionName ?? "—"}
                  </CardField>
                  <CardField term="Target" className="[overflow-wrap:anywhere]">
                    {e.target ?? "—"}
                  </CardField>
                  {e.requestId ? (
                    <CardField term="Request id">
                      <span className="flex items-center gap-2">
                        <code className="font-mono text-xs [overflow-wrap:anywhere]">{e.requestId}</code>
                        <CopyButton text={e.requestId} label="Copy request id" iconOnly className="shrink-0" />
                      </span>
                    </CardField>
                  ) : null}
                </dl>
              </li>
            ))}
          </ul>
          <Table caption="Audit records, newest first" className="hidden xl:block">
            <thead>
              <tr>
                {auditColumns.map((column) => (
                  <Th key={column} className="whitespace-normal!">
                    {column}
                  </Th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {entries.map((e) => (
                <tr key={e.id}>
                  <Td className="whitespace-normal!">
                    <Time iso={e.at} />
                  </Td>
                  <Td className="whitespace-normal! [overflow-wrap:normal]">
                    {e.actorEmail ? breaksAt(e.actorEmail, "@") : "—"}
                  </Td>
                  <Td className="whitespace-normal! [overflow-wrap:normal]">
                    <code className="text-xs">{breaksAt(e.action, ".")}</code>
                  </Td>
                  <Td className={wraps}>{e.connectionName ?? "—"}</Td>
                  <Td className={`${wraps} max-w-64`}>{e.target ?? "—"}</Td>
                  <Td>
                    <OutcomeBadge entry={e} />
                  </Td>
                  <Td>{e.requestId ? <RequestId id={e.requestId} /> : "—"}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </>
      )}
      <AuditPaging filter={filter} nextCursor={nextCursor} />
    </>
  );
}
