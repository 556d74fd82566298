"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useEffect, useRef, useState } from "react";
import { Alert, EmptyState } from "@/components/ui/card";
import { EventDetail } from "@/components/webhooks/event-detail";
import { EventFiltersForm } from "@/components/webhooks/event-filters-form";
import { EventTable } from "@/components/webhooks/event-table";
import { ExportLinks } from "@/components/webhooks/export-links";
import { ALL_CONNECTIONS, type EventFilters } from "@/lib/webhooks/filters";
import type { Page, WebhookEventSummary } from "@/lib/webhooks/types";

const FOLLOW_INTERVAL_MS = 3000;

async function fetchPage(query: string): Promise<Page<WebhookEventSummary>> {
  const response = await fetch(`/api/webhook-events${query ? `?${query}` : ""}`, { headers: { Accept: "application/json" } });
  const body = (await response.json().catch(() => ({}))) as { events?: WebhookEventSummary[]; nextCursor?: string | null; errorDescription?: string };
  if (!response.ok || !body.events) throw new Error(body.errorDescription ?? `HTTP ${response.status}`);
  return { items: body.events, nextCursor: body.nextCursor ?? null };
}

export function WebhookLogClient({
  initialPage,
  filters,
  query,
  connections,
  piiMasked,
  initialEventId,
}: {
  initialPage: Page<WebhookEventSummary>;
  filters: EventFilters;
  /** The filters as a query string, without the cursor. */
  query: string;
  connections: Array<{ id: string; name: string }>;
  piiMasked: boolean;
  /** The event whose detail the link opens (`?event=`). */
  initialEventId: number | null;
}) {
  const onFirstPage = !filters.cursor;
  const pageQuery = [query, filters.cursor ? `cursor=${encodeURIComponent(filters.cursor)}` : ""].filter(Boolean).join("&");
  const [follow, setFollow] = useState(false);
  const [selectedId, setSelectedId] = useState<number | null>(initialEventId);
  // The open detail is part of the URL, so it can be shared; replaceState keeps it out of the history.
  useEffect(() => {
    const url = new URL(window.location.href);
    if (selectedId === null) url.searchParams.delete("event");
    else url.searchParams.set("event", String(selectedId));
    if (url.href !== window.location.href) window.history.replaceState(window.history.state, "", url);
  }, [selectedId]);
  const closeDetail = useCallback(() => {
    const id = selectedId;
    setSelectedId(null);
    // Back to where the reader was: the row's Details button.
    if (id !== null) document.querySelector<HTMLElement>(`[data-event-details="${id}"]`)?.focus();
  }, [selectedId]);
  const [announcement, setAnnouncement] = useState("");
  const page = useQuery({
    queryKey: ["webhook-events", pageQuery],
    queryFn: () => fetchPage(pageQuery),
    initialData: initialPage,
    staleTime: FOLLOW_INTERVAL_MS,
    refetchInterval: follow && onFirstPage ? FOLLOW_INTERVAL_MS : false,
  });

  // Announce (politely) how many events arrived since the last refresh.
  const seen = useRef(new Set(initialPage.items.map((e) => e.id)));
  useEffect(() => {
    const fresh = page.data.items.filter((e) => !seen.current.has(e.id));
    for (const e of page.data.items) seen.current.add(e.id);
    if (fresh.length > 0) setAnnouncement(`${fresh.length} new webhook event${fresh.length === 1 ? "" : "s"}.`);
  }, [page.data]);

  const events = page.data.items;
  return (
    <>
      <EventFiltersForm filters={filters} connections={connections} />
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            checked={follow}
            disabled={!onFirstPage}
            onChange={(e) => setFollow(e.target.checked)}
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
      {page.isError ? (
        <div className="mb-3">
          <Alert tone="danger" title="The log could not be refreshed">
            {page.error.message}. The rows below may be out of date.
          </Alert>
        </div>
      ) : null}
      {events.length === 0 ? (
        <EmptyState title={onFirstPage ? "No webhook events match" : "No older events"}>
          {query
            ? "No stored event matches these filters. Clear them, or follow live to see new events as they arrive."
            : "No event has been received yet. Paste a connection's webhook URL (on its page) into the tenant's settings; events appear here as the service sends them."}
        </EmptyState>
      ) : (
        <EventTable
          events={events}
          selectedId={selectedId}
          onSelect={setSelectedId}
          showConnection={!filters.connectionId || filters.connectionId === ALL_CONNECTIONS}
        />
      )}
      <nav aria-label="Pages" className="mt-3 flex gap-3 text-sm">
        {onFirstPage ? null : (
          <Link className="text-indigo-700 underline" href={query ? `/webhooks?${query}` : "/webhooks"}>
            ← Newest
          </Link>
        )}
        {page.data.nextCursor ? (
          <Link className="text-indigo-700 underline" href={`/webhooks?${[query, `cursor=${encodeURIComponent(page.data.nextCursor)}`].filter(Boolean).join("&")}`}>
            Older →
          </Link>
        ) : null}
      </nav>
      {selectedId !== null ? <EventDetail id={selectedId} onClose={closeDetail} /> : null}
    </>
  );
}
