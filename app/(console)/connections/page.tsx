import type { Metadata } from "next";
import Link from "next/link";
import { KeyFingerprint } from "@/components/connections/key-fingerprint";
import { Badge } from "@/components/ui/badge";
import { EmptyState, PageHeader } from "@/components/ui/card";
import { Table, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { requireRole } from "@/lib/auth/guards";
import { regionLabels } from "@/lib/service/regions";
import { listConnections } from "@/lib/connections/repository";

export const metadata: Metadata = { title: "Connections" };

const newConnectionLink = (
  <Link href="/connections/new" className="rounded-md bg-indigo-600 px-3.5 py-2 text-sm font-medium text-white shadow-sm hover:bg-indigo-700">
    New connection
  </Link>
);

export default async function ConnectionsPage() {
  await requireRole("admin");
  const connections = await listConnections();
  return (
    <>
      <PageHeader title="Connections" description="The tenants this console administers. Keys are stored encrypted and never shown again." actions={newConnectionLink} />
      {connections.length === 0 ? (
        <EmptyState title="No connections yet" action={newConnectionLink}>
          Add the tenant&apos;s region and management API secret key to start.
        </EmptyState>
      ) : (
        <Table caption="Connections">
          <thead>
            <tr>
              <Th>Name</Th>
              <Th>Region</Th>
              <Th>Key check</Th>
              <Th>Management key</Th>
              <Th>Server key</Th>
              <Th>Updated</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {connections.map((c) => (
              <tr key={c.id}>
                <Td>
                  <Link href={`/connections/${c.id}`} className="font-medium text-indigo-700 underline">
                    {c.name}
                  </Link>
                </Td>
                <Td>{regionLabels[c.region]}</Td>
                <Td>{c.verifiedAt ? <Badge tone="success">verified</Badge> : <Badge tone="warning">unverified</Badge>}</Td>
                <Td>
                  <KeyFingerprint value={c.keys.management} />
                </Td>
                <Td>
                  <KeyFingerprint value={c.keys.server} />
                  {c.keys.server_secondary ? <span className="block text-xs text-slate-500">+ second key …{c.keys.server_secondary.last4}</span> : null}
                </Td>
                <Td>
                  <Time iso={c.updatedAt} />
                  {c.updatedBy ? <span className="block text-xs text-slate-500">by {c.updatedBy}</span> : null}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}
