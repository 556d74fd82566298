import { Card } from "@/components/ui/card";
import { Link } from "@/components/ui/link";
import { Table, TableSkeleton, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { eventHref } from "@/lib/overview/links";
import type { RecentExpiry } from "@/lib/overview/types";
import { ALL_CONNECTIONS, filtersToQuery } from "@/lib/webhooks/constants";

const columns = ["User", "Method", "Tenant", "Expired"] as const;
const title = "Expired in the last 24 h";
const allOfThem = `/webhooks?${filtersToQuery({ connectionId: ALL_CONNECTIONS, received: "24h", test: "exclude" })}`;

function Heading() {
  return (
    <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
      <h2 className="text-base font-semibold text-slate-900 dark:text-slate-100">{title}</h2>
      <Link href={allOfThem} className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300">
        All of them in the log
      </Link>
    </div>
  );
}

/** The newest expiries: whose authenticator, which method (and platform), which tenant, when; each opens its event. */
export async function ExpiredToday({ expiries: pending }: { expiries: Promise<RecentExpiry[]> }) {
  const expiries = await pending;
  return (
    <Card className="h-full min-w-0">
      <section aria-label={title} data-testid="expired-today">
        <Heading />
        {expiries.length === 0 ? (
          <p className="rounded-md border border-dashed border-slate-300 px-4 py-10 text-center text-sm text-slate-600 dark:border-slate-600 dark:text-slate-300">
            No authenticator expired in the last 24 h.
          </p>
        ) : (
          // A fixed layout: what the rows hold never widens the table past its card (a long id or tenant name is cut
          // short, whole in its title; the columns fit the longest method and "in under a minute"). A phone scrolls it.
          <Table
            caption="The latest expired authenticators"
            className="shadow-none"
            tableClassName="w-[max(100%,32rem)] table-fixed"
          >
            <thead>
              <tr>
                <Th>User</Th>
                <Th className="w-36">Method</Th>
                <Th className="w-28">Tenant</Th>
                <Th className="w-36">Expired</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {expiries.map((e) => (
                <tr key={e.id}>
                  <Td>
                    <Link
                      href={eventHref(e.id)}
                      className="block truncate font-medium text-indigo-700 hover:underline dark:text-indigo-300"
                      title={e.userId ?? undefined}
                    >
                      {e.userId ?? "(no user id)"}
                    </Link>
                  </Td>
                  <Td className="whitespace-normal">
                    <span className="font-mono text-xs">{e.verificationMethod ?? "—"}</span>
                    {e.devicePlatform ? (
                      <span className="block text-xs text-slate-600 dark:text-slate-300">{e.devicePlatform}</span>
                    ) : null}
                  </Td>
                  <Td className="truncate">
                    <span title={e.connectionName}>{e.connectionName}</span>
                  </Td>
                  <Td>
                    <Time iso={e.expiresAt} />
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </section>
    </Card>
  );
}

export function ExpiredTodaySkeleton({ rows }: { rows: number }) {
  return (
    <Card className="h-full min-w-0">
      <Heading />
      <TableSkeleton columns={columns} rows={rows} />
    </Card>
  );
}
