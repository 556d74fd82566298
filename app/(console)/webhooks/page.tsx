import type { Metadata } from "next";
import { StreamedSection } from "@/components/ui/streamed-section";
import { EventFiltersForm } from "@/components/webhooks/event-filters-form";
import { IgnoredFilters } from "@/components/webhooks/ignored-filters";
import { RejectionLog } from "@/components/webhooks/rejection-log";
import { WebhooksPageHeader } from "@/components/webhooks/webhooks-page-header";
import { WebhookLogSkeleton } from "@/components/webhooks/webhook-log-skeleton";
import { WebhookLogTabs } from "@/components/webhooks/webhook-log-tabs";
import { requireRole } from "@/lib/auth/guards";
import type { Role } from "@/lib/auth/roles";
import { getSelectedConnection } from "@/lib/connections/current";
import { listConnectionChoices } from "@/lib/connections/repository";
import { env } from "@/lib/env";
import { eventFiltersSchema, filtersToQuery, openEventSchema, parseFiltersLeniently, rejectionFiltersSchema, type EventFilters } from "@/lib/webhooks/filters";
import type { Page, WebhookEventSummary } from "@/lib/webhooks/types";
import { withCursorFallback, type CursorFallback } from "@/lib/webhooks/cursor";
import { listWebhookEvents, listWebhookRejections, piiVisibleTo } from "@/lib/webhooks/webhooks";
import { WebhookLogClient } from "./client";

export const metadata: Metadata = { title: "Webhooks" };

type SearchParams = Record<string, string | string[] | undefined>;

export default async function WebhooksPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requireRole("support");
  const { tab: tabParam, ...params } = await searchParams;
  const tab = tabParam === "rejections" ? "rejections" : "events";
  return (
    <>
      <WebhooksPageHeader retentionDays={env().CONSOLE_WEBHOOK_RETENTION_DAYS} />
      <WebhookLogTabs current={tab} />
      {await (tab === "events" ? eventsView(params, user.role) : rejectionsView(params))}
    </>
  );
}

// The filters paint at once and the log streams in. The parameters the parse left out are said above
// them at once; a bad cursor only shows when the query runs, so the log's section says that one (hence
// the empty list handed to withCursorFallback).

async function eventsView(params: SearchParams, role: Role) {
  const { filters, ignored } = parseFiltersLeniently(eventFiltersSchema, params);
  // Without a connection in the link, the log follows the shell's connection switcher.
  if (params.connectionId === undefined) filters.connectionId = (await getSelectedConnection())?.id;
  const connections = await listConnectionChoices();
  const query = filtersToQuery(filters, ["cursor"]);
  const openEvent = openEventSchema.safeParse(params.event);
  return (
    <>
      <IgnoredFilters ignored={ignored} />
      {/* The fields are uncontrolled: a new filter set (the switcher, Clear) mounts the form afresh. The
          two siblings' keys must differ (they are the same query without a cursor), else React keeps both. */}
      <EventFiltersForm key={`form?${query}`} filters={filters} connections={connections} />
      {/* A new filter set or page is a new view: its skeleton at once, follow-live and the open detail afresh. */}
      <StreamedSection key={`log?${filtersToQuery(filters)}`} title="The log" fallback={<WebhookLogSkeleton rows={filters.limit} />}>
        <EventLogSection
          log={withCursorFallback(filters, [], (f) => listWebhookEvents(f, role))}
          query={query}
          piiMasked={!piiVisibleTo(role)}
          initialEventId={openEvent.success ? openEvent.data : null}
        />
      </StreamedSection>
    </>
  );
}

/** The streamed part of the events view: the log once its first page is read, handed to the client wiring. */
async function EventLogSection({
  log,
  ...props
}: {
  log: Promise<CursorFallback<EventFilters, Page<WebhookEventSummary>>>;
  query: string;
  piiMasked: boolean;
  initialEventId: number | null;
}) {
  const { result, filters, ignored } = await log;
  return (
    <>
      <IgnoredFilters ignored={ignored} />
      <WebhookLogClient initialPage={result} filters={filters} {...props} />
    </>
  );
}

async function rejectionsView(params: SearchParams) {
  const { filters, ignored } = parseFiltersLeniently(rejectionFiltersSchema, params);
  const connections = await listConnectionChoices();
  return (
    <>
      <IgnoredFilters ignored={ignored} />
      <StreamedSection
        key={["tab=rejections", filtersToQuery(filters)].filter(Boolean).join("&")}
        title="The log"
        fallback={<WebhookLogSkeleton rows={filters.limit} />}
      >
        <RejectionLog log={withCursorFallback(filters, [], listWebhookRejections)} connections={connections} />
      </StreamedSection>
    </>
  );
}
