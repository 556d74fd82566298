"use client";

import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";

import { EventLog, type OpenRow } from "@/components/webhooks/event-log";
import { WebhookLogSkeleton } from "@/components/webhooks/webhook-log-skeleton";
import { DEFAULT_PAGE_SIZE } from "@/lib/webhooks/constants";
import type { LoggedEvent, Page, WebhookRejectionSummary } from "@/lib/webhooks/types";

// The Rejections tab's code loads when that tab is shown: the events log's first load does not carry it.
const RejectionLog = lazy(() =>
  import("@/components/webhooks/rejection-log").then((m) => ({ default: m.RejectionLog })),
);

const FOLLOW_INTERVAL_MS = 3000;

async function fetchPage(query: string): Promise<Page<LoggedEvent>> {
  const response = await fetch(`/api/webhook-events${query ? `?${query}` : ""}`, {
    headers: { Accept: "application/json" },
  });
  const body = (await response.json().catch(() => ({}))) as {
    events?: LoggedEvent[];
    nextCursor?: string | null;
    newerCursor?: string | null;
    errorDescription?: string;
  };
  if (!response.ok || !body.events) throw new Error(body.errorDescription ?? `HTTP ${response.status}`);
  return { items: body.events, nextCursor: body.nextCursor ?? null, newerCursor: body.newerCursor ?? null };
}

/**
 * The open row of a log, kept in the URL (`?event=ID`, `?rejection=ID`) so it can be shared; replaceState
 * keeps it out of the history. A parameter that names no row opens the drawer on "not found".
 */
function useOpenRow(param: string, initial: OpenRow): [OpenRow, (id: number) => void, () => void] {
  const [open, setOpen] = useState<OpenRow>(initial);
  useEffect(() => {
    const url = new URL(window.location.href);
    if (open === null) url.searchParams.delete(param);
    else if ("id" in open) url.searchParams.set(param, String(open.id));
    if (url.href !== window.location.href) window.history.replaceState(window.history.state, "", url);
  }, [open, param]);
  const select = useCallback((id: number) => setOpen({ id }), []);
  const close = useCallback(() => setOpen(null), []);
  return [open, select, close];
}

/** The events log's client state: the page query (polled while following live), follow, and the open event. */
export function WebhookLogClient({
  initialPage,
  connectionId,
  cursor,
  query,
  piiMasked,
  initialOpen,
  toolbar,
  canForward,
}: {
  initialPage: Page<LoggedEvent>;
  connectionId: string | undefined;
  cursor: string | undefined;
  /** The filters as a query string, without the cursor. */
  query: string;
  piiMasked: boolean;
  /** The event the link opens (`?event=`). */
  initialOpen: OpenRow;
  /** Beside the exports: what the page adds (an admin's replay). */
  toolbar: React.ReactNode;
  /** An admin's drawer may resend an event; support's is read-only. */
  canForward: boolean;
}) {
  const onFirstPage = !cursor;
  const pageQuery = [query, cursor ? `cursor=${encodeURIComponent(cursor)}` : ""].filter(Boolean).join("&");
  const [follow, setFollow] = useState(false);
  const [open, select, close] = useOpenRow("event", initialOpen);
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
      connectionId={connectionId}
      cursor={cursor}
      query={query}
      piiMasked={piiMasked}
      follow={follow}
      onFollowChange={setFollow}
      announcement={announcement}
      open={open}
      onOpen={select}
      onClose={close}
      toolbar={toolbar}
      canForward={canForward}
    />
  );
}

/** The rejections log's client state: the open rejection (its detail is all in the row, so nothing is fetched). */
export function RejectionLogClient({
  page,
  initialOpen,
  ...props
}: {
  page: Page<WebhookRejectionSummary>;
  initialOpen: OpenRow;
  cursor: string | undefined;
  query: string;
  connectionName: string | null;
}) {
  const [open, select, close] = useOpenRow("rejection", initialOpen);
  return (
    <Suspense fallback={<WebhookLogSkeleton rows={DEFAULT_PAGE_SIZE} />}>
      <RejectionLog page={page} open={open} onOpen={select} onClose={close} {...props} />
    </Suspense>
  );
}
