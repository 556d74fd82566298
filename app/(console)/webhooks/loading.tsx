import { EventFiltersFormSkeleton } from "@/components/webhooks/filter-bar-skeleton";
import { WebhookLogSkeleton } from "@/components/webhooks/webhook-log-skeleton";
import { WebhookLogTabsSkeleton } from "@/components/webhooks/webhook-log-tabs";
import { WebhooksPageHeader } from "@/components/webhooks/webhooks-page-header";
import { env } from "@/lib/env";
import { DEFAULT_PAGE_SIZE } from "@/lib/webhooks/constants";

/** The page's own heading, then the events tab's shape (the log's usual opening) while the page is read. */
export default function WebhooksLoading() {
  return (
    <>
      <WebhooksPageHeader retentionDays={env().CONSOLE_WEBHOOK_RETENTION_DAYS} />
      <div aria-busy="true">
        <span className="sr-only">Loading the webhook log…</span>
        <WebhookLogTabsSkeleton />
        <EventFiltersFormSkeleton />
        <WebhookLogSkeleton rows={DEFAULT_PAGE_SIZE} />
      </div>
    </>
  );
}
