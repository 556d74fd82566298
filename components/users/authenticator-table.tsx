import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/card";
import { Link } from "@/components/ui/link";
import { CardField, CardFields, Table, TableHead, TableSkeleton, Td } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import type { UserAuthenticator } from "@/lib/service/schemas";

const columns = ["Method", "Type", "Device, passkey or address", "Created", "Last verified", "Id"] as const;

/** What tells one authenticator from another: the passkey's name, the device, else the (masked) address. */
function describeDevice(a: UserAuthenticator): string {
  return (
    a.webauthnCredential?.name ??
    ([a.deviceName, a.devicePlatform].filter(Boolean).join(" · ") || a.email || a.phoneNumber || "—")
  );
}

/** A user's current authenticators; an empty answer points to the webhook log, where expired ones are recorded. */
export function AuthenticatorTable({
  userId,
  authenticators,
}: {
  userId: string;
  authenticators: UserAuthenticator[];
}) {
  if (authenticators.length === 0) {
    return (
      <EmptyState title={`No current authenticators for “${userId}”`}>
        The user has none enrolled, or every one has expired. Expired credentials are removed at once; their{" "}
        <Link
          className="font-medium text-indigo-700 underline dark:text-indigo-300"
          href={`/webhooks?userId=${encodeURIComponent(userId)}`}
        >
          authenticator.expired events
        </Link>{" "}
        are in the webhook log.
      </EmptyState>
    );
  }
  return (
    <>
      {/* A phone or a narrow window has no room for six columns: each authenticator is a card there, the table from
          `lg` up. */}
      <ul
        aria-label={`Current authenticators of ${userId}`}
        className="space-y-3 sm:grid sm:grid-cols-2 sm:gap-3 sm:space-y-0 lg:hidden"
      >
        {authenticators.map((a) => (
          <li
            key={a.userAuthenticatorId}
            className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800"
          >
            <MethodBadges a={a} />
            <CardFields>
              <CardField term="Type">{a.authenticatorType ?? "—"}</CardField>
              <CardField term="Device" className="[overflow-wrap:anywhere]">
                {describeDevice(a)}
              </CardField>
              <CardField term="Created">
                <Time iso={a.createdAt} />
              </CardField>
              <CardField term="Last verified">
                <Time iso={a.lastVerifiedAt ?? a.verifiedAt} />
              </CardField>
              <CardField term="Id" className="font-mono text-xs [overflow-wrap:anywhere]">
                {a.userAuthenticatorId}
              </CardField>
            </CardFields>
          </li>
        ))}
      </ul>
      <Table caption={`Current authenticators of ${userId}`} className="hidden lg:block">
        <TableHead columns={columns} />
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {authenticators.map((a) => (
            <tr key={a.userAuthenticatorId}>
              <Td>
                <MethodBadges a={a} />
              </Td>
              <Td>{a.authenticatorType ?? "—"}</Td>
              <Td className="whitespace-normal! [overflow-wrap:anywhere]">{describeDevice(a)}</Td>
              <Td className="whitespace-normal!">
                <Time iso={a.createdAt} />
              </Td>
              <Td className="whitespace-normal!">
                <Time iso={a.lastVerifiedAt ?? a.verifiedAt} />
              </Td>
              <Td className="font-mono text-xs text-slate-600 dark:text-slate-400">{a.userAuthenticatorId}</Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </>
  );
}

function MethodBadges({ a }: { a: UserAuthenticator }) {
  return (
    <span className="flex items-center gap-2">
      <Badge tone="info">{a.verificationMethod}</Badge>
      {a.isDefault ? <Badge tone="success">default</Badge> : null}
    </span>
  );
}

/** The table's shape while the service is asked: the same headings and two rows. */
export function AuthenticatorTableSkeleton() {
  return <TableSkeleton columns={columns} rows={2} />;
}
