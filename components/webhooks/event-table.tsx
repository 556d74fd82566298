"use client";

import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { Table, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { formatUtc } from "@/lib/time-format";
import { formatDelay, isDelayBeyondSpec } from "@/lib/webhooks/format";
import type { WebhookEventSummary } from "@/lib/webhooks/types";

import { openOnRowClick, rowClassName, rowHref, RowLink } from "./row-link";
import { SignatureBadge } from "./signature-badge";
import { TestBadge } from "./test-badge";

/**
 * The events of one page, fitting a 1280 px screen without sideways scroll: fixed widths, long values cut short with
 * the whole in the title, rarer columns dropped on narrow screens. Secondary text is slate-600 at least: AA contrast
 * on the selected row's indigo-50 too.
 */
export function EventTable({
  events,
  selectedId,
  onSelect,
  showConnection,
  query,
}: {
  events: WebhookEventSummary[];
  selectedId: number | null;
  onSelect: (id: number) => void;
  /** When the view spans connections, each row says whose event it is. */
  showConnection: boolean;
  /** The view's query string, kept in each row's link. */
  query: string;
}) {
  return (
    <Table caption="Webhook events, newest first" tableClassName="w-full table-fixed">
      <thead>
        <tr>
          <Th className="w-28">Received</Th>
          {showConnection ? <Th className="hidden w-28 md:table-cell">Connection</Th> : null}
          <Th>User</Th>
          <Th className="hidden w-40 sm:table-cell">Method</Th>
          <Th className="hidden w-36 lg:table-cell">Device</Th>
          <Th className="hidden w-28 md:table-cell">Delay</Th>
          <Th className="w-32">Signature</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
        {events.map((e) => {
          const selected = selectedId === e.id;
          const open = () => onSelect(e.id);
          const who = e.userId ?? e.type;
          return (
            <tr
              key={e.id}
              data-testid="webhook-event-row"
              className={rowClassName(selected)}
              onClick={openOnRowClick(open)}
            >
              <Td>
                <Time iso={e.firstReceivedAt} className="relative z-10" />
              </Td>
              {showConnection ? (
                <Td className="hidden truncate md:table-cell">
                  <span className="relative z-10" title={e.connectionName ?? e.connectionId}>
                    {e.connectionName ?? "—"}
                  </span>
                </Td>
              ) : null}
              <Td>
                <span className="flex min-w-0 items-center gap-1.5">
                  <RowLink
                    href={rowHref(query, "event", e.id)}
                    selected={selected}
                    onOpen={open}
                    title={who}
                    data-event-link={e.id}
                    className={cn("min-w-0", e.userId ? "font-mono text-xs" : "text-slate-700 dark:text-slate-300")}
                  >
                    <span className="sr-only">{e.isTest ? "Test event of " : "Event of "}</span>
                    {who}
                  </RowLink>
                  {e.isTest ? (
                    <span className="relative z-10 shrink-0" data-testid="test-badge">
                      <TestBadge />
                    </span>
                  ) : null}
                </span>
              </Td>
              <Td className="hidden truncate font-mono text-xs sm:table-cell">
                <span className="relative z-10" title={e.verificationMethod ?? undefined}>
                  {e.verificationMethod ?? "—"}
                </span>
              </Td>
              <Td className="hidden lg:table-cell">
                <span
                  className="relative z-10 flex min-w-0 items-baseline gap-1"
                  title={[e.deviceName, e.devicePlatform].filter(Boolean).join(", ") || undefined}
                >
                  <span className="truncate">{e.deviceName ?? "—"}</span>
                  {e.devicePlatform ? (
                    <span className="shrink-0 text-xs text-slate-600 dark:text-slate-300">{e.devicePlatform}</span>
                  ) : null}
                </span>
              </Td>
              <Td className="hidden md:table-cell">
                <span
                  className="relative z-10 inline-flex items-center gap-1"
                  title={`Received minus expiry${e.expiresAt ? ` (expired ${formatUtc(e.expiresAt)})` : ""}. The service may send the event up to 24 h after the expiry.`}
                >
                  {formatDelay(e.firstReceivedAt, e.expiresAt)}
                  {isDelayBeyondSpec(e.firstReceivedAt, e.expiresAt) ? (
                    <Badge tone="warning" title="Later than the 24 h the specification allows">
                      &gt; 24 h
                    </Badge>
                  ) : null}
                </span>
              </Td>
              <Td>
                <span className="relative z-10 inline-flex items-center gap-1.5">
                  <SignatureBadge status={e.signatureStatus} />
                  {e.deliveryCount > 1 ? (
                    <span
                      data-testid="delivery-count"
                      title={`Delivered ${e.deliveryCount} times (the service retried; stored once)`}
                      className="rounded bg-slate-100 dark:bg-slate-800 px-1 text-xs font-medium text-slate-700 dark:text-slate-300 ring-1 ring-slate-300 ring-inset"
                    >
                      <span aria-hidden="true">×{e.deliveryCount}</span>
                      <span className="sr-only">{e.deliveryCount} deliveries</span>
                    </span>
                  ) : null}
                </span>
              </Td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
