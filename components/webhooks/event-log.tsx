"use client";
import Link from "next/link";
import { Alert, EmptyState } from "@/components/ui/card";
import { ALL_CONNECTIONS, type EventFilters } from "@/lib/webhooks/filters";
import type { Page, WebhookEventSummary } from "@/lib/webhooks/types";
import { EventDetail } from "./event-detail";
import { EventTable } from "./event-table";
import { ExportLinks } from "./export-links";

/**
 * The events log below the filter form: follow live, exports, the table, paging and the open event's
 * detail. Its state (the query, follow, the open event) is held by the page's client wiring.
 */
export function EventLog({
  page,
  refreshError,
  filters,
  query,
  piiMasked,
  follow,
  onFollowChange,
  announcement,
  selectedId,
  onSelect,
  onCloseDetail,
}: {
  page: Page<WebhookEventSummary>;
  /** Why the latest refetch failed; the rows shown are then the last good ones. */
  refreshError: Error | null;
  filters: EventFilters;
  /** The filters as a query string, without the cursor. */
  query: string;
  piiMasked: boolean;
  follow: boolean;
  onFollowChange: (follow: boolean) => void;
  /** Read out politely when rows arrive while following. */
  announcement: string;
  selectedId: number | null;
  onSelect: (id: number) => void;
  onCloseDetail: () => void;
}) {
  const onFirstPage = !filters.cursor;
  return (
    <>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            checked={follow}
            disabled={!onFirstPage}
            onChange={(e) => onFollowChange(e.target.checked)}
            className="size-4 rounded border-slate-300"
          />
          Follow live {onFirstPage ? "" : "(only on the newest page)"}
        </label>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          {piiMasked ? <span className="text-slate-500">Email addresses and phone numbers are masked for your role.</span> : null}
          <ExportLinks endpoint="/api/webhook-events/export" query={query} />
        </div>
      </div>
      <p role="status" aria-live="polite" className="sr-only" data-testid="live-announcement">
        {announcement}
      </p>
      {refreshError ? (
        <div className="mb-3">
          <Alert tone="danger" title="The log could not be refreshed">
            {refreshError.message}. The rows below may be out of date.
          </Alert>
        </div>
      ) : null}
      {page.items.length === 0 ? (
        <EmptyState title={onFirstPage ? "No webhook events match" : "No older events"}>
          {query
            ? "No stored event matches these filters. Clear them, or follow live to see new events as they arrive."
            : "No event has been received yet. Paste a connection's webhook URL (on its page) into the tenant's settings; events appear here as the service sends them."}
        </EmptyState>
      ) : (
        <EventTable
          events={page.items}
          selectedId={selectedId}
          onSelect={onSelect}
          showConnection={!filters.connectionId || filters.connectionId === ALL_CONNECTIONS}
        />
      )}
      <nav aria-label="Pages" className="mt-3 flex gap-3 text-sm">
        {onFirstPage ? null : (
          <Link className="text-indigo-700 underline" href={query ? `/webhooks?${query}` : "/webhooks"}>
            ← Newest
          </Link>
        )}
        {page.nextCursor ? (
          <Link className="text-indigo-700 underline" href={`/webhooks?${[query, `cursor=${encodeURIComponent(page.nextCursor)}`].filter(Boolean).join("&")}`}>
            Older →
          </Link>
        ) : null}
      </nav>
      {selectedId !== null ? <EventDetail id={selectedId} onClose={onCloseDetail} /> : null}
    </>
  );
}
