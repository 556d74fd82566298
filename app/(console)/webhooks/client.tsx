"use client";
import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { EventLog } from "@/components/webhooks/event-log";
import type { EventFilters } from "@/lib/webhooks/filters";
import type { Page, WebhookEventSummary } from "@/lib/webhooks/types";

const FOLLOW_INTERVAL_MS = 3000;

async function fetchPage(query: string): Promise<Page<WebhookEventSummary>> {
  const response = await fetch(`/api/webhook-events${query ? `?${query}` : ""}`, { headers: { Accept: "application/json" } });
  const body = (await response.json().catch(() => ({}))) as { events?: WebhookEventSummary[]; nextCursor?: string | null; errorDescription?: string };
  if (!response.ok || !body.events) throw new Error(body.errorDescription ?? `HTTP ${response.status}`);
  return { items: body.events, nextCursor: body.nextCursor ?? null };
}

/** The events log's client state: the page query (polled while following live), follow, and the open event. */
export function WebhookLogClient({
  initialPage,
  filters,
  query,
  piiMasked,
  initialEventId,
}: {
  initialPage: Page<WebhookEventSummary>;
  filters: EventFilters;
  /** The filters as a query string, without the cursor. */
  query: string;
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

  return (
    <EventLog
      page={page.data}
      refreshError={page.isError ? page.error : null}
      filters={filters}
      query={query}
      piiMasked={piiMasked}
      follow={follow}
      onFollowChange={setFollow}
      announcement={announcement}
      selectedId={selectedId}
      onSelect={setSelectedId}
      onCloseDetail={closeDetail}
    />
  );
}
