import type { Metadata } from "next";
import Link from "next/link";
import { Alert, PageHeader } from "@/components/ui/card";
import { RejectionLog } from "@/components/webhooks/rejection-log";
import { WebhookLogTabs } from "@/components/webhooks/webhook-log-tabs";
import { requireRole } from "@/lib/auth/guards";
import { env } from "@/lib/env";
import { filtersToQuery, parseEventFilters, parseRejectionFilters } from "@/lib/webhooks/filters";
import { BadCursorError, listConnectionNames, listWebhookEvents, listWebhookRejections } from "@/lib/webhooks/queries";
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

function invalid(description: string, resetHref: string) {
  return (
    <Alert tone="danger" title="These filters are not valid">
      {description}.{" "}
      <Link className="underline" href={resetHref}>
        Clear the filters
      </Link>
    </Alert>
  );
}

async function eventsView(params: SearchParams, role: "admin" | "support") {
  const parsed = parseEventFilters(params);
  if (!parsed.ok) return invalid(parsed.errorDescription, "/webhooks");
  const withoutCursor = { ...parsed.filters, cursor: undefined };
  try {
    const [page, connections] = await Promise.all([listWebhookEvents(parsed.filters, role), listConnectionNames()]);
    return (
      <WebhookLogClient
        initialPage={page}
        filters={parsed.filters}
        query={filtersToQuery(withoutCursor)}
        connections={connections}
        piiMasked={role !== "admin"}
      />
    );
  } catch (error) {
    if (error instanceof BadCursorError) return invalid(error.message, "/webhooks");
    throw error;
  }
}

async function rejectionsView(params: SearchParams) {
  const parsed = parseRejectionFilters(params);
  if (!parsed.ok) return invalid(parsed.errorDescription, "/webhooks?tab=rejections");
  try {
    const [page, connections] = await Promise.all([listWebhookRejections(parsed.filters), listConnectionNames()]);
    return <RejectionLog page={page} filters={parsed.filters} connections={connections} />;
  } catch (error) {
    if (error instanceof BadCursorError) return invalid(error.message, "/webhooks?tab=rejections");
    throw error;
  }
}
