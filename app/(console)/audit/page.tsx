import type { Metadata } from "next";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState, PageHeader } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/input";
import { Table, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { listAuditEntries } from "@/lib/audit/audit";
import { describeAuditOutcome, shortRequestId } from "@/lib/audit/display";
import { auditActions, auditFilterSchema, type AuditFilter } from "@/lib/audit/schemas";
import type { AuditEntry } from "@/lib/audit/types";
import { requireRole } from "@/lib/auth/guards";
import { listConnectionChoices } from "@/lib/connections/repository";

export const metadata: Metadata = { title: "Audit" };

type Search = Record<string, string | string[] | undefined>;

function first(search: Search): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(search).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
}

function pageLink(filter: AuditFilter, cursor: string | undefined): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...filter, cursor })) if (v) params.set(k, v);
  return `/audit?${params.toString()}`;
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

export default async function AuditPage({ searchParams }: { searchParams: Promise<Search> }) {
  await requireRole("admin");
  const raw = first(await searchParams);
  const filter = auditFilterSchema.parse(raw);
  const [{ entries, nextCursor }, connections] = await Promise.all([listAuditEntries(filter), listConnectionChoices()]);
  const withoutCursor: AuditFilter = { ...filter, cursor: undefined };
  return (
    <>
      <PageHeader title="Audit" description="Every change made through the console. Records are append-only: the console never edits or deletes them." />
      <form method="get" action="/audit" className="mb-6 grid gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 lg:grid-cols-3 lg:items-end 2xl:grid-cols-6" aria-label="Filter the audit log">
        <Field id="actor" label="Actor email contains">
          <Input id="actor" name="actor" defaultValue={filter.actor ?? ""} />
        </Field>
        <Field id="action" label="Action">
          <Select id="action" name="action" defaultValue={filter.action ?? ""}>
            <option value="">Any</option>
            {auditActions.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="connectionId" label="Connection">
          <Select id="connectionId" name="connectionId" defaultValue={filter.connectionId ?? ""}>
            <option value="">Any</option>
            {connections.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="from" label="From (UTC)">
          <Input id="from" name="from" type="datetime-local" defaultValue={raw.from ?? ""} />
        </Field>
        <Field id="to" label="To (UTC)">
          <Input id="to" name="to" type="datetime-local" defaultValue={raw.to ?? ""} />
        </Field>
        <div className="flex gap-2">
          <Button type="submit">Filter</Button>
          <Link href="/audit" className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
            Clear
          </Link>
        </div>
      </form>
      {entries.length === 0 ? (
        <EmptyState title="No audit records match">Change or clear the filters.</EmptyState>
      ) : (
        <Table caption="Audit records, newest first">
          <thead>
            <tr>
              <Th>Time</Th>
              <Th>Actor</Th>
              <Th>Action</Th>
              <Th>Connection</Th>
              <Th>Target</Th>
              <Th>Outcome</Th>
              <Th>Request id</Th>
            </tr>
          </thead>
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
      <nav aria-label="Audit pages" className="mt-4 flex gap-2">
        {filter.cursor ? (
          <Link href={pageLink(withoutCursor, undefined)} className="rounded-md px-3 py-2 text-sm font-medium text-indigo-700 ring-1 ring-slate-300">
            Newest
          </Link>
        ) : null}
        {nextCursor ? (
          <Link href={pageLink(withoutCursor, nextCursor)} className="rounded-md px-3 py-2 text-sm font-medium text-indigo-700 ring-1 ring-slate-300">
            Older
          </Link>
        ) : null}
      </nav>
    </>
  );
}
