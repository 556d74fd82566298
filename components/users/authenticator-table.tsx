import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/card";
import { Table, TableHead, TableSkeleton, Td } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import type { UserAuthenticator } from "@/lib/service/schemas";

const columns = ["Method", "Type", "Device, passkey or address", "Created", "Last verified", "Id"] as const;

/** What tells one authenticator from another: the passkey's name, the device, else the (masked) address. */
function describeDevice(a: UserAuthenticator): string {
  return a.webauthnCredential?.name ?? ([a.deviceName, a.devicePlatform].filter(Boolean).join(" · ") || a.email || a.phoneNumber || "—");
}


/** A user's current authenticators; an empty answer points to the webhook log, where expired ones are recorded. */
export function AuthenticatorTable({ userId, authenticators }: { userId: string; authenticators: UserAuthenticator[] }) {
  if (authenticators.length === 0) {
    return (
      <EmptyState title={`No current authenticators for “${userId}”`}>
        The user has none enrolled, or every one has expired. Expired credentials are removed at once; their{" "}
        <Link className="font-medium text-indigo-700 underline" href={`/webhooks?userId=${encodeURIComponent(userId)}`}>
          authenticator.expired events
        </Link>{" "}
        are in the webhook log.
      </EmptyState>
    );
  }
  return (
    <Table caption={`Current authenticators of ${userId}`}>
      <TableHead columns={columns} />
      <tbody className="divide-y divide-slate-100">
        {authenticators.map((a) => (
          <tr key={a.userAuthenticatorId}>
            <Td>
              <span className="flex items-center gap-2">
                <Badge tone="info">{a.verificationMethod}</Badge>
                {a.isDefault ? <Badge tone="success">default</Badge> : null}
              </span>
            </Td>
            <Td>{a.authenticatorType ?? "—"}</Td>
            <Td>{describeDevice(a)}</Td>
            <Td>
              <Time iso={a.createdAt} />
            </Td>
            <Td>
              <Time iso={a.lastVerifiedAt ?? a.verifiedAt} />
            </Td>
            <Td className="font-mono text-xs text-slate-600">{a.userAuthenticatorId}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** The table's shape while the service is asked: the same headings and two rows. */
export function AuthenticatorTableSkeleton() {
  return <TableSkeleton columns={columns} rows={2} />;
}
