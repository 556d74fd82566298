import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/card";
import { Table, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { ALL_CONNECTIONS, filtersToQuery, type RejectionFilters } from "@/lib/webhooks/filters";
import type { Page, WebhookRejectionSummary } from "@/lib/webhooks/types";
import type { CursorFallback } from "@/lib/webhooks/cursor";
import { ExportLinks } from "./export-links";
import { IgnoredFilters } from "./ignored-filters";

/**
 * Refused deliveries: the answer to "why did my webhook not arrive". Server-rendered, streamed in when
 * the page's query (`log`) answers; paging is by link.
 */
export async function RejectionLog({
  log,
  connections,
}: {
  log: Promise<CursorFallback<RejectionFilters, Page<WebhookRejectionSummary>>>;
  connections: Array<{ id: string; name: string }>;
}) {
  const { result: page, filters, ignored } = await log;
  const { cursor, ...rest } = filters;
  const query = filtersToQuery(rest);
  const link = (extra: string) => `/webhooks?${["tab=rejections", query, extra].filter(Boolean).join("&")}`;
  return (
    <>
      <IgnoredFilters ignored={ignored} />
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2 text-sm">
        <p className="text-slate-600">
          Every refused request is listed with its reason, up to 30 a minute per URL (a flood is not recorded in full).
          {filters.connectionId && filters.connectionId !== ALL_CONNECTIONS
            ? ` Connection: ${connections.find((c) => c.id === filters.connectionId)?.name ?? filters.connectionId}.`
            : ""}
        </p>
        <div className="flex gap-2 text-sm">
          <ExportLinks endpoint="/api/webhook-rejections" query={query} />
        </div>
      </div>
      {page.items.length === 0 ? (
        <EmptyState title="No rejected deliveries">Every request that reached a webhook URL was accepted.</EmptyState>
      ) : (
        <Table caption="Rejected webhook requests, newest first">
          <thead>
            <tr>
              <Th>Received</Th>
              <Th>Connection</Th>
              <Th>Status</Th>
              <Th>Reason</Th>
              <Th>Detail</Th>
              <Th>Event id</Th>
              <Th>Body SHA-256</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {page.items.map((r) => (
              <tr key={r.id} data-testid="webhook-rejection-row">
                <Td>
                  <Time iso={r.receivedAt} />
                </Td>
                <Td>{r.connectionName ?? <span className="text-slate-400">unknown URL</span>}</Td>
                <Td>{r.status}</Td>
                <Td>
                  <Badge tone="danger">{r.reason}</Badge>
                </Td>
                <Td className="max-w-md whitespace-normal text-xs wrap-anywhere">{r.detail}</Td>
                <Td className="font-mono text-xs">{r.eventId ?? "—"}</Td>
                <Td className="font-mono text-xs">
                  <span title={r.bodySha256}>{r.bodySha256.slice(0, 12)}…</span>
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <nav aria-label="Pages" className="mt-3 flex gap-3 text-sm">
        {cursor ? (
          <Link className="text-indigo-700 underline" href={link("")}>
            ← Newest
          </Link>
        ) : null}
        {page.nextCursor ? (
          <Link className="text-indigo-700 underline" href={link(`cursor=${encodeURIComponent(page.nextCursor)}`)}>
            Older →
          </Link>
        ) : null}
      </nav>
    </>
  );
}
