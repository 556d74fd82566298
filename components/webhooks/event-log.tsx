"use client";

import { lazy, Suspense, useState } from "react";

import { Alert, EmptyState } from "@/components/ui/card";
import { ALL_CONNECTIONS } from "@/lib/webhooks/constants";
import type { LoggedEvent, Page } from "@/lib/webhooks/types";

import { EventDetailSkeleton } from "./event-detail-skeleton";
import { EventTable } from "./event-table";
import { ExportLinks } from "./export-links";
import { LogPager } from "./log-pager";

// The drawer and its content load when an event is first opened: the log's first load does not carry them.
const LogDrawer = lazy(() => import("./log-drawer").then((m) => ({ default: m.LogDrawer })));
const EventDetail = lazy(() => import("./event-detail").then((m) => ({ default: m.EventDetail })));
const EventNotFound = lazy(() => import("./event-detail").then((m) => ({ default: m.EventNotFound })));

/** What the drawer shows: an event by id, a `?event=` that names no event, or nothing (closed). */
export type OpenRow = { id: number } | { notFound: string } | null;

/**
 * The events log below the filter bar: follow live, exports, the table, paging, and the open event's
 * drawer over it. Its state (the query, follow, the open event) is held by the page's client wiring.
 */
export function EventLog({
  page,
  refreshError,
  connectionId,
  cursor,
  query,
  piiMasked,
  follow,
  onFollowChange,
  announcement,
  open,
  onOpen,
  onClose,
  toolbar,
  canForward = false,
}: {
  page: Page<LoggedEvent>;
  /** Why the latest refetch failed; the rows shown are then the last good ones. */
  refreshError: Error | null;
  connectionId: string | undefined;
  /** The page's cursor; none on the newest page. */
  cursor: string | undefined;
  /** The filters as a query string, without the cursor. */
  query: string;
  piiMasked: boolean;
  follow: boolean;
  onFollowChange: (follow: boolean) => void;
  /** Read out politely when rows arrive while following. */
  announcement: string;
  open: OpenRow;
  onOpen: (id: number) => void;
  onClose: () => void;
  /** Beside the exports: what the page adds (an admin's replay). */
  toolbar?: React.ReactNode;
  /** An admin's drawer may resend an event; support's is read-only. */
  canForward?: boolean;
}) {
  // Mounted from the first open on (and kept, so closing runs its focus return), never before.
  const [drawerLoaded, setDrawerLoaded] = useState(open !== null);
  if (open !== null && !drawerLoaded) setDrawerLoaded(true);
  const onFirstPage = !cursor;
  const openId = open && "id" in open ? open.id : null;
  const pageLink = (cursor: string | null) => {
    const q = [query, cursor ? `cursor=${encodeURIComponent(cursor)}` : ""].filter(Boolean).join("&");
    return q ? `/webhooks?${q}` : "/webhooks";
  };
  return (
    <>
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <label className="flex items-center gap-2 text-sm text-slate-800 dark:text-slate-200">
          <input
            type="checkbox"
            checked={follow}
            disabled={!onFirstPage}
            onChange={(e) => onFollowChange(e.target.checked)}
            className="size-4 rounded border-slate-300 dark:border-slate-600"
          />
          Follow live {onFirstPage ? "" : "(only on the newest page)"}
        </label>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          {piiMasked ? (
            <span className="text-slate-600 dark:text-slate-300">Email and phone are masked for your role.</span>
          ) : null}
          {toolbar}
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
        <EmptyState title={onFirstPage ? "No webhook events match" : "No events on this page"}>
          {query
            ? "No stored event matches these filters. Clear them, widen the time range, or follow live to see new events as they arrive."
            : "No event has been received yet. Paste a connection's webhook URL (on its page) into the tenant's settings; events appear here as the service sends them."}
        </EmptyState>
      ) : (
        <EventTable
          events={page.items}
          selectedId={openId}
          onSelect={onOpen}
          showConnection={!connectionId || connectionId === ALL_CONNECTIONS}
          query={pageLink(cursor ?? null).split("?")[1] ?? ""}
        />
      )}
      <LogPager
        onFirstPage={onFirstPage}
        newerCursor={page.newerCursor}
        olderCursor={page.nextCursor}
        href={pageLink}
      />
      {drawerLoaded ? (
        <Suspense fallback={null}>
          <LogDrawer
            title="Event details"
            ids={page.items.map((e) => e.id)}
            currentId={open === null ? null : "id" in open ? open.id : "not-found"}
            onMove={onOpen}
            onClose={onClose}
            rowLinkSelector={(id) => `[data-event-link="${id}"]`}
          >
            {open === null ? null : (
              <Suspense fallback={<EventDetailSkeleton />}>
                {"id" in open ? (
                  <EventDetail id={open.id} canForward={canForward} />
                ) : (
                  <EventNotFound param={open.notFound} />
                )}
              </Suspense>
            )}
          </LogDrawer>
        </Suspense>
      ) : null}
    </>
  );
}
