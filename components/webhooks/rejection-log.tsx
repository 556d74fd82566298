"use client";

import { Alert, EmptyState } from "@/components/ui/card";
import { Table, Td, Th } from "@/components/ui/table";
import { ExactTime, Time } from "@/components/ui/time";
import { rejectionReasonText, type Page, type WebhookRejectionSummary } from "@/lib/webhooks/types";

import { DetailList, DetailRow } from "./detail-list";
import type { OpenRow } from "./event-log";
import { ExportLinks } from "./export-links";
import { LogDrawer } from "./log-drawer";
import { LogPager } from "./log-pager";
import { openOnRowClick, rowClassName, rowHref, RowLink } from "./row-link";

/**
 * Refused deliveries: the answer to "why did my webhook not arrive". Each row opens the same drawer as
 * an event, with the reason in words; everything it shows is in the row already, so nothing is fetched.
 */
export function RejectionLog({
  page,
  cursor,
  query,
  connectionName,
  open,
  onOpen,
  onClose,
}: {
  page: Page<WebhookRejectionSummary>;
  cursor: string | undefined;
  /** The filters as a query string, without the cursor or the tab. */
  query: string;
  /** The connection the view is filtered to, if any. */
  connectionName: string | null;
  open: OpenRow;
  onOpen: (id: number) => void;
  onClose: () => void;
}) {
  const link = (c: string | null) =>
    `/webhooks?${["tab=rejections", query, c ? `cursor=${encodeURIComponent(c)}` : ""].filter(Boolean).join("&")}`;
  const openId = open && "id" in open ? open.id : null;
  const shown = openId === null ? undefined : page.items.find((r) => r.id === openId);
  return (
    <>
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2 text-sm">
        <p className="text-slate-600 dark:text-slate-300">
          Every refused request, with its reason (at most 30 a minute per URL are recorded).
          {connectionName ? ` Connection: ${connectionName}.` : ""}
        </p>
        <div className="flex gap-2 text-sm">
          <ExportLinks endpoint="/api/webhook-rejections" query={query} />
        </div>
      </div>
      {page.items.length === 0 ? (
        <EmptyState title={cursor ? "No rejections on this page" : "No rejected deliveries"}>
          {query
            ? "No recorded rejection matches these filters."
            : "Every request that reached a webhook URL was accepted."}
        </EmptyState>
      ) : (
        <Table caption="Rejected webhook requests, newest first" tableClassName="w-full table-fixed">
          <thead>
            <tr>
              <Th className="w-28">Received</Th>
              <Th className="hidden w-32 md:table-cell">Connection</Th>
              <Th className="w-16">Status</Th>
              <Th className="sm:w-44">Reason</Th>
              <Th className="hidden sm:table-cell">Detail</Th>
              <Th className="hidden w-40 lg:table-cell">Event id</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {page.items.map((r) => {
              const selected = openId === r.id;
              const reason = rejectionReasonText(r.reason);
              return (
                <tr
                  key={r.id}
                  data-testid="webhook-rejection-row"
                  className={rowClassName(selected)}
                  onClick={openOnRowClick(() => onOpen(r.id))}
                >
                  <Td>
                    <Time iso={r.receivedAt} className="relative z-10" />
                  </Td>
                  <Td className="hidden truncate md:table-cell">
                    {r.connectionName ? (
                      <span className="relative z-10" title={r.connectionName}>
                        {r.connectionName}
                      </span>
                    ) : (
                      <span
                        className="relative z-10 text-slate-600 dark:text-slate-300"
                        title="The URL's token matches no connection"
                      >
                        unknown URL
                      </span>
                    )}
                  </Td>
                  <Td>{r.status}</Td>
                  <Td>
                    <RowLink
                      href={rowHref(link(cursor ?? null).split("?")[1] ?? "", "rejection", r.id)}
                      selected={selected}
                      onOpen={() => onOpen(r.id)}
                      title={`${r.reason}: ${reason.explanation}`}
                      data-rejection-link={r.id}
                    >
                      <span className="sr-only">Rejection: </span>
                      {reason.label}
                    </RowLink>
                  </Td>
                  <Td className="hidden truncate text-xs sm:table-cell">
                    <span className="relative z-10" title={r.detail ?? undefined}>
                      {r.detail ?? "—"}
                    </span>
                  </Td>
                  <Td className="hidden truncate font-mono text-xs lg:table-cell">
                    <span className="relative z-10" title={r.eventId ?? undefined}>
                      {r.eventId ?? "—"}
                    </span>
                  </Td>
                </tr>
              );
            })}
          </tbody>
        </Table>
      )}
      <LogPager onFirstPage={!cursor} newerCursor={page.newerCursor} olderCursor={page.nextCursor} href={link} />
      <LogDrawer
        title="Rejection details"
        ids={page.items.map((r) => r.id)}
        currentId={open === null ? null : shown ? shown.id : "not-found"}
        onMove={onOpen}
        onClose={onClose}
        rowLinkSelector={(id) => `[data-rejection-link="${id}"]`}
      >
        {shown ? (
          <RejectionDetail rejection={shown} />
        ) : (
          <Alert tone="warning" title="Rejection not found">
            No rejection with this id is on this page of the log: it may be on another page, or purged after the
            retention period.
          </Alert>
        )}
      </LogDrawer>
    </>
  );
}

function RejectionDetail({ rejection: r }: { rejection: WebhookRejectionSummary }) {
  const reason = rejectionReasonText(r.reason);
  const headers = Object.entries(r.headers);
  return (
    <div className="space-y-5" data-testid="rejection-detail">
      <Alert tone="warning" title={`${reason.label} (${r.reason})`}>
        {reason.explanation}
      </Alert>
      <DetailList>
        <DetailRow label="Status">{r.status}</DetailRow>
        <DetailRow label="Detail">{r.detail ?? "—"}</DetailRow>
        <DetailRow label="Received">
          <ExactTime iso={r.receivedAt} />
        </DetailRow>
        <DetailRow label="Connection">{r.connectionName ?? "unknown URL (no connection has its token)"}</DetailRow>
        <DetailRow label="Event id">{r.eventId ?? "— (not readable from the body)"}</DetailRow>
        <DetailRow label="Body SHA-256">
          <code className="text-xs break-all">{r.bodySha256}</code>
        </DetailRow>
      </DetailList>
      <section aria-labelledby="rejection-headers">
        <h3 id="rejection-headers" className="mb-1 text-sm font-semibold">
          Headers{" "}
          <span className="font-normal text-slate-600 dark:text-slate-300">(only those kept to explain a refusal)</span>
        </h3>
        {headers.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">None of the kept headers was sent.</p>
        ) : (
          <DetailList>
            {headers.map(([name, value]) => (
              <DetailRow key={name} label={name}>
                <code className="text-xs break-all">{value}</code>
              </DetailRow>
            ))}
          </DetailList>
        )}
      </section>
    </div>
  );
}
