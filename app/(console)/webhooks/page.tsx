import type { Metadata } from "next";

import { ReplayDialog } from "@/components/destinations/replay-dialog";
import { StreamedSection } from "@/components/ui/streamed-section";
import { EventFiltersForm } from "@/components/webhooks/event-filters-form";
import type { OpenRow } from "@/components/webhooks/event-log";
import { IgnoredFilters } from "@/components/webhooks/ignored-filters";
import { RejectionFiltersForm } from "@/components/webhooks/rejection-filters-form";
import { WebhookLogSkeleton } from "@/components/webhooks/webhook-log-skeleton";
import { WebhookLogTabs } from "@/components/webhooks/webhook-log-tabs";
import { WebhooksPageHeader } from "@/components/webhooks/webhooks-page-header";
import { requireRole } from "@/lib/auth/guards";
import type { Role } from "@/lib/auth/roles";
import { getConnectionScope } from "@/lib/connections/current";
import { listConnectionChoices } from "@/lib/connections/repository";
import { listDestinationChoices } from "@/lib/destinations/destinations";
import { env } from "@/lib/env";
import { ALL_CONNECTIONS, filtersToQuery } from "@/lib/webhooks/constants";
import { withCursorFallback, type CursorFallback } from "@/lib/webhooks/cursor";
import { parseFiltersLeniently } from "@/lib/webhooks/filters";
import {
  eventFiltersSchema,
  openRowSchema,
  rejectionFiltersSchema,
  type EventFilters,
  type RejectionFilters,
} from "@/lib/webhooks/schemas";
import type { LoggedEvent, Page, WebhookRejectionSummary } from "@/lib/webhooks/types";
import { listFilterChoices, listWebhookEvents, listWebhookRejections, piiVisibleTo } from "@/lib/webhooks/webhooks";

import { RejectionLogClient, WebhookLogClient } from "./client";

export const metadata: Metadata = { title: "Webhooks" };

type SearchParams = Record<string, string | string[] | undefined>;

export default async function WebhooksPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requireRole("support");
  // `tab`, `event` and `rejection` are the page's own parameters, not filters of either log.
  const { tab: tabParam, event, rejection, ...params } = await searchParams;
  const tab = tabParam === "rejections" ? "rejections" : "events";
  return (
    <>
      <WebhooksPageHeader retentionDays={env().CONSOLE_WEBHOOK_RETENTION_DAYS} />
      <WebhookLogTabs current={tab} />
      {
        await (tab === "events"
          ? eventsView(params, openRow(event), user.role)
          : rejectionsView(params, openRow(rejection)))
      }
    </>
  );
}

/** `?event=` / `?rejection=`: a row id, or what the link said when it names no row (the drawer says "not found"). */
function openRow(param: string | string[] | undefined): OpenRow {
  const raw = Array.isArray(param) ? param[0] : param;
  if (raw === undefined || raw === "") return null;
  const parsed = openRowSchema.safeParse(raw);
  return parsed.success ? { id: parsed.data } : { notFound: raw.slice(0, 100) };
}

// The filters paint at once and the log streams in. The parameters the parse left out are said above
// them at once; a bad cursor only shows when the query runs, so the log's section says that one (hence
// the empty list handed to withCursorFallback).

async function eventsView(params: SearchParams, initialOpen: OpenRow, role: Role) {
  const { filters, ignored } = parseFiltersLeniently(eventFiltersSchema, params);
  const linked = params.connectionId !== undefined;
  // Without a connection in the link, the log follows the header's switcher (a connection, or all of them).
  if (!linked) filters.connectionId = (await getConnectionScope()) ?? undefined;
  const [connections, choices] = await Promise.all([listConnectionChoices(), listFilterChoices()]);
  const query = filtersToQuery(filters, ["cursor"]);
  const connection = connections.find((c) => c.id === filters.connectionId);
  // Admins replay what the filters select to a destination of the one connection they show.
  const replay =
    role === "admin" && connection ? (
      <ReplayDialog
        connectionId={connection.id}
        connectionName={connection.name}
        destinations={await listDestinationChoices(connection.id)}
        filters={query}
      />
    ) : null;
  return (
    <>
      <IgnoredFilters ignored={ignored} />
      {/* The fields are uncontrolled: a new filter set (the switcher, Clear) mounts the bar afresh. The
          two siblings' keys must differ (they are the same query without a cursor), else React keeps both. */}
      <EventFiltersForm key={`form?${query}`} filters={filters} linked={linked} choices={choices} />
      {/* A new filter set or page is a new view: its skeleton at once, follow-live and the open detail afresh. */}
      <StreamedSection
        key={`log?${filtersToQuery(filters)}`}
        title="The log"
        fallback={<WebhookLogSkeleton rows={filters.limit} />}
      >
        <EventLogSection
          log={withCursorFallback(filters, [], (f) => listWebhookEvents(f, role))}
          query={query}
          piiMasked={!piiVisibleTo(role)}
          initialOpen={initialOpen}
          toolbar={replay}
          canForward={role === "admin"}
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
  log: Promise<CursorFallback<EventFilters, Page<LoggedEvent>>>;
  query: string;
  piiMasked: boolean;
  initialOpen: OpenRow;
  toolbar: React.ReactNode;
  canForward: boolean;
}) {
  const { result, filters, ignored } = await log;
  return (
    <>
      <IgnoredFilters ignored={ignored} />
      <WebhookLogClient initialPage={result} connectionId={filters.connectionId} cursor={filters.cursor} {...props} />
    </>
  );
}

async function rejectionsView(params: SearchParams, initialOpen: OpenRow) {
  const { filters, ignored } = parseFiltersLeniently(rejectionFiltersSchema, params);
  const linked = params.connectionId !== undefined;
  if (!linked) filters.connectionId = (await getConnectionScope()) ?? undefined;
  const connections = await listConnectionChoices();
  const query = filtersToQuery(filters, ["cursor"]);
  const connectionName =
    filters.connectionId && filters.connectionId !== ALL_CONNECTIONS
      ? (connections.find((c) => c.id === filters.connectionId)?.name ?? filters.connectionId)
      : null;
  return (
    <>
      <IgnoredFilters ignored={ignored} />
      <RejectionFiltersForm key={`rejections-form?${query}`} filters={filters} linked={linked} />
      <StreamedSection
        key={["tab=rejections", filtersToQuery(filters)].filter(Boolean).join("&")}
        title="The log"
        fallback={<WebhookLogSkeleton rows={filters.limit} />}
      >
        <RejectionLogSection
          log={withCursorFallback(filters, [], listWebhookRejections)}
          query={query}
          connectionName={connectionName}
          initialOpen={initialOpen}
        />
      </StreamedSection>
    </>
  );
}

async function RejectionLogSection({
  log,
  ...props
}: {
  log: Promise<CursorFallback<RejectionFilters, Page<WebhookRejectionSummary>>>;
  query: string;
  connectionName: string | null;
  initialOpen: OpenRow;
}) {
  const { result, filters, ignored } = await log;
  return (
    <>
      <IgnoredFilters ignored={ignored} />
      <RejectionLogClient page={result} cursor={filters.cursor} {...props} />
    </>
  );
}
