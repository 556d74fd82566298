import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/card";
import { Table, TableHead, TableSkeleton, Td } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import type { ConnectionSummary } from "@/lib/connections/types";
import { regionLabels } from "@/lib/service/regions";
import { KeyFingerprint } from "./key-fingerprint";
import { NewConnectionLink } from "./new-connection-link";

const columns = ["Name", "Region", "Key check", "Management key", "Server key", "Updated"];


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
    <Table caption="Connections">
      <TableHead columns={columns} />
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
  );
}

/** The table's shape while the connections are read: its columns and a few rows. */
export function ConnectionTableSkeleton() {
  return <TableSkeleton columns={columns} rows={3} />;
}
