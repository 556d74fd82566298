import { Card, Skeleton } from "@/components/ui/card";
import { Link } from "@/components/ui/link";
import { Table, TableSkeleton, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { eventHref } from "@/lib/overview/links";
import type { RecentExpiry } from "@/lib/overview/types";
import { ALL_CONNECTIONS, filtersToQuery } from "@/lib/webhooks/constants";

const columns = ["User", "Method", "Tenant", "Expired"] as const;
const title = "Expired in the last 24 h";
const allOfThem = `/webhooks?${filtersToQuery({ connectionId: ALL_CONNECTIONS, received: "24h", test: "exclude" })}`;

const order = "Newest expiry first.";
/** Narrower screens list the expiries as short cards (the table needs `lg`): the same rows, in the same order. */
const cards = "space-y-2 lg:hidden";
const cardItem = "rounded-md px-3 py-2 ring-1 ring-slate-200 dark:ring-slate-700";

function Heading() {
  return (
    <div className="mb-3 flex flex-wrap items-baseline justify-between gap-x-2 gap-y-1">
      <div>
        <h2 className="text-base font-semibold text-slate-900 dark:text-slate-100">{title}</h2>
        <p className="text-xs text-slate-600 dark:text-slate-300">{order}</p>
      </div>
      <Link href={allOfThem} className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300">
        All of them in the log
      </Link>
    </div>
  );
}

function ExpiryCards({ expiries }: { expiries: RecentExpiry[] }) {
  return (
    <ul aria-label={`${title}, newest expiry first`} className={cards} data-testid="expired-today-cards">
      {expiries.map((e) => (
        <li key={e.id} className={cardItem}>
          <Link
            href={eventHref(e.id)}
            className="block font-medium text-indigo-700 [overflow-wrap:anywhere] hover:underline dark:text-indigo-300"
          >
            {e.userId ?? "(no user id)"}
          </Link>
          <p className="mt-0.5 flex flex-wrap gap-x-2 text-xs text-slate-600 dark:text-slate-300">
            <span className="font-mono text-slate-800 dark:text-slate-200">{e.verificationMethod ?? "—"}</span>
            {e.devicePlatform ? <span>{e.devicePlatform}</span> : null}
            <span className="min-w-0 [overflow-wrap:anywhere]">{e.connectionName}</span>
            <span>
              expired <Time iso={e.expiresAt} />
            </span>
          </p>
        </li>
      ))}
    </ul>
  );
}

/**
 * The latest expiries, newest expiry first: whose authenticator, which method (and platform), which tenant, when;
 * each opens its event. A table from `lg` up, short cards below.
 */
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
          <>
            <ExpiryCards expiries={expiries} />
            {/* A fixed layout: the rows never widen the table past its card (a long id or tenant name is cut short,
                whole in its title; the columns fit the longest method and "in under a minute"). */}
            <Table
              caption="The latest expired authenticators, newest expiry first"
              className="hidden shadow-none lg:block"
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
          </>
        )}
      </section>
    </Card>
  );
}

export function ExpiredTodaySkeleton({ rows }: { rows: number }) {
  return (
    <Card className="h-full min-w-0">
      <Heading />
      <ul aria-hidden="true" className={cards}>
        {Array.from({ length: rows }, (_, i) => (
          <li key={i} className={cardItem}>
            <Skeleton className="h-5 w-40" />
            <Skeleton className="mt-0.5 h-4 w-56" />
          </li>
        ))}
      </ul>
      <div className="hidden lg:block">
        <TableSkeleton columns={columns} rows={rows} />
      </div>
    </Card>
  );
}
