import type { Metadata } from "next";
import { z } from "zod";
import { Alert, PageHeader } from "@/components/ui/card";
import { RejectionLog } from "@/components/webhooks/rejection-log";
import { WebhookLogTabs } from "@/components/webhooks/webhook-log-tabs";
import { requireRole } from "@/lib/auth/guards";
import { env } from "@/lib/env";
import { getSelectedConnection } from "@/lib/connections/current";
import {
  eventFiltersSchema,
  filtersToQuery,
  parseFiltersLeniently,
  rejectionFiltersSchema,
  type IgnoredFilter,
} from "@/lib/webhooks/filters";
import { BadCursorError, listWebhookEvents, listWebhookRejections } from "@/lib/webhooks/webhooks";
import { listConnectionChoices } from "@/lib/connections/repository";
import { WebhookLogClient } from "./client";

export const metadata: Metadata = { title: "Webhooks" };

type SearchParams = Record<string, string | string[] | undefined>;

export default async function WebhooksPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requireRole("support");
  const { tab: tabParam, ...params } = await searchParams;
  const tab = tabParam === "rejections" ? "rejections" : "events";
  const retentionDays = env().CONSOLE_WEBHOOK_RETENTION_DAYS;
  return (
    <>
      <PageHeader
        title="Webhooks"
        description={
          <>
            Events the service sent to this console&apos;s webhook URLs, newest first. An <code>authenticator.expired</code> event may
            arrive up to 24 hours after the expiry itself (the service sends it asynchronously), so a delay of minutes or hours is
            normal. Events and rejections are kept for <strong>{retentionDays} days</strong>.
          </>
        }
      />
      <WebhookLogTabs current={tab} />
      {await (tab === "events" ? eventsView(params, user.role) : rejectionsView(params))}
    </>
  );
}

/** Says which hand-edited parameters were left out, by the form's labels, instead of refusing the view. */
function IgnoredFilters({ ignored }: { ignored: IgnoredFilter[] }) {
  if (ignored.length === 0) return null;
  return (
    <div className="mb-4">
      <Alert tone="warning" title={ignored.length === 1 ? "One filter in the link was left out" : "Some filters in the link were left out"}>
        <ul className="list-inside list-disc">
          {ignored.map((f) => (
            <li key={f.name}>
              {f.label}: {f.message}.
            </li>
          ))}
        </ul>
        The other filters apply.
      </Alert>
    </div>
  );
}

/** Runs a page query; a cursor from an old or edited link falls back to the newest page, said so. */
async function withCursorFallback<F extends { cursor?: string }, R>(
  filters: F,
  ignored: IgnoredFilter[],
  run: (filters: F) => Promise<R>,
): Promise<{ result: R; filters: F; ignored: IgnoredFilter[] }> {
  try {
    return { result: await run(filters), filters, ignored };
  } catch (error) {
    if (!(error instanceof BadCursorError)) throw error;
    const newest = { ...filters, cursor: undefined };
    return { result: await run(newest), filters: newest, ignored: [...ignored, { name: "cursor", label: "Page", message: "not a page of this log" }] };
  }
}

const eventParam = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

async function eventsView(params: SearchParams, role: "admin" | "support") {
  const lenient = parseFiltersLeniently(eventFiltersSchema, params);
  // Without a connection in the link, the log follows the shell's connection switcher.
  if (params.connectionId === undefined) lenient.filters.connectionId = (await getSelectedConnection())?.id;
  const [{ result: page, filters, ignored }, connections] = await Promise.all([
    withCursorFallback(lenient.filters, lenient.ignored, (f) => listWebhookEvents(f, role)),
    listConnectionChoices(),
  ]);
  const openEvent = eventParam.safeParse(params.event);
  return (
    <>
      <IgnoredFilters ignored={ignored} />
      <WebhookLogClient
        // A new filter set is a new view: follow-live and the open detail start afresh.
        key={filtersToQuery(filters)}
        initialPage={page}
        filters={filters}
        query={filtersToQuery({ ...filters, cursor: undefined })}
        connections={connections}
        piiMasked={role !== "admin"}
        initialEventId={openEvent.success ? openEvent.data : null}
      />
    </>
  );
}

async function rejectionsView(params: SearchParams) {
  const lenient = parseFiltersLeniently(rejectionFiltersSchema, params);
  const [{ result: page, filters, ignored }, connections] = await Promise.all([
    withCursorFallback(lenient.filters, lenient.ignored, listWebhookRejections),
    listConnectionChoices(),
  ]);
  return (
    <>
      <IgnoredFilters ignored={ignored} />
      <RejectionLog page={page} filters={filters} connections={connections} />
    </>
  );
}
