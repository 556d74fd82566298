import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/card";
import { Link } from "@/components/ui/link";
import { Table, TableHead, Td } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import type { ConnectionSummary } from "@/lib/connections/types";
import { regionLabels } from "@/lib/service/regions";

import { KeyFingerprint } from "./key-fingerprint";
import { connectionColumns } from "./loading-shapes";
import { NewConnectionLink } from "./new-connection-link";

/** Every connection with its keys' fingerprints (never a key), or how to add the first one. */
export function ConnectionTable({ connections }: { connections: ConnectionSummary[] }) {
  if (connections.length === 0) {
    return (
      <EmptyState title="No connections yet" action={<NewConnectionLink />}>
        Add the tenant&apos;s region and management API secret key to start.
      </EmptyState>
    );
  }
  return (
    <>
      {/* A phone or a narrow window has no room for six columns: each connection is a card there, the table from `lg`
          up. */}
      <ul aria-label="Connections" className="space-y-3 sm:grid sm:grid-cols-2 sm:gap-3 sm:space-y-0 lg:hidden">
        {connections.map((c) => (
          <li
            key={c.id}
            className="rounded-lg bg-white dark:bg-slate-900 p-4 shadow-sm ring-1 ring-slate-200 dark:ring-slate-700"
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <Link
                href={`/connections/${c.id}`}
                className="min-w-0 font-medium break-words text-indigo-700 dark:text-indigo-300 underline"
              >
                {c.name}
              </Link>
              <KeyCheck verifiedAt={c.verifiedAt} />
            </div>
            <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1.5 text-sm">
              <dt className="text-slate-600 dark:text-slate-300">Region</dt>
              <dd className="text-slate-800 dark:text-slate-200">{regionLabels[c.region]}</dd>
              <dt className="text-slate-600 dark:text-slate-300">Management key</dt>
              <dd className="text-slate-800 dark:text-slate-200">
                <KeyFingerprint value={c.keys.management} />
              </dd>
              <dt className="text-slate-600 dark:text-slate-300">Server key</dt>
              <dd className="text-slate-800 dark:text-slate-200">
                <ServerKeys connection={c} />
              </dd>
              <dt className="text-slate-600 dark:text-slate-300">Updated</dt>
              <dd className="text-slate-800 dark:text-slate-200">
                <Updated connection={c} />
              </dd>
            </dl>
          </li>
        ))}
      </ul>
      <Table caption="Connections" className="hidden lg:block">
        <TableHead columns={connectionColumns} />
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {connections.map((c) => (
            <tr key={c.id}>
              <Td>
                <Link
                  href={`/connections/${c.id}`}
                  className="font-medium text-indigo-700 dark:text-indigo-300 underline"
                >
                  {c.name}
                </Link>
              </Td>
              <Td>{regionLabels[c.region]}</Td>
              <Td>
                <KeyCheck verifiedAt={c.verifiedAt} />
              </Td>
              <Td className="whitespace-normal!">
                <KeyFingerprint value={c.keys.management} />
              </Td>
              <Td className="whitespace-normal!">
                <ServerKeys connection={c} />
              </Td>
              <Td className="whitespace-normal!">
                <Updated connection={c} />
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </>
  );
}

function KeyCheck({ verifiedAt }: { verifiedAt: string | null }) {
  return verifiedAt ? <Badge tone="success">verified</Badge> : <Badge tone="warning">unverified</Badge>;
}

function ServerKeys({ connection: c }: { connection: ConnectionSummary }) {
  return (
    <>
      <KeyFingerprint value={c.keys.server} />
      {c.keys.server_secondary ? (
        <span className="block text-xs text-slate-600 dark:text-slate-300">
          + second key …{c.keys.server_secondary.last4}
        </span>
      ) : null}
    </>
  );
}

function Updated({ connection: c }: { connection: ConnectionSummary }) {
  return (
    <>
      <Time iso={c.updatedAt} />
      {c.updatedBy ? (
        <span className="block text-xs [overflow-wrap:anywhere] text-slate-600 dark:text-slate-300">
          by {c.updatedBy}
        </span>
      ) : null}
    </>
  );
}
