"use client";

import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { CopyButton } from "@/components/ui/copy-button";
import { Table, Td, Th } from "@/components/ui/table";
import { formatUtc } from "@/lib/time-format";
import { formatDelay, isDelayBeyondSpec } from "@/lib/webhooks/format";
import type { LoggedEvent } from "@/lib/webhooks/types";

import { ForwardingBadge } from "./forwarding-badge";
import { ReceivedTime } from "./received-time";
import { openOnRowClick, rowClassName, rowHref, RowLink } from "./row-link";
import { SignatureBadge } from "./signature-badge";
import { TestBadge } from "./test-badge";

/**
 * The events of one page. From `lg` a table whose columns take the width of their content (long values cut short
 * with the whole in the title; the connection under the user below `2xl`, the device under the method); below it each row is a card (CSS only:
 * one row, one link, for the keyboard's j/k). The copy buttons stay out of Tab's way from row to row (the drawer
 * has one too).
 */
const cardRow = "max-lg:grid max-lg:grid-cols-2 max-lg:gap-x-4 max-lg:gap-y-1.5 max-lg:px-3 max-lg:py-3";
const cardCell = "max-lg:block max-lg:p-0! max-lg:min-w-0 lg:px-2!";
const above = "relative z-10";

/** A card's field name, shown below `lg` only (the table has its column header). */
function CardLabel({ children }: { children: string }) {
  return <span className="mr-1 text-xs text-slate-600 lg:hidden dark:text-slate-300">{children}</span>;
}

export function EventTable({
  events,
  selectedId,
  onSelect,
  showConnection,
  query,
}: {
  events: LoggedEvent[];
  selectedId: number | null;
  onSelect: (id: number) => void;
  /** When the view spans connections, each row says whose event it is. */
  showConnection: boolean;
  /** The view's query string, kept in each row's link. */
  query: string;
}) {
  return (
    <Table caption="Webhook events, newest first" tableClassName="w-full max-lg:block">
      <thead className="max-lg:sr-only">
        <tr>
          <Th className="px-2!">Received</Th>
          {showConnection ? <Th className="hidden px-2! 2xl:table-cell">Connection</Th> : null}
          <Th className="hidden px-2! xl:table-cell">Event</Th>
          <Th className="px-2!">User</Th>
          <Th className="px-2!">
            Method<span className="hidden xl:inline"> · device</span>
          </Th>
          <Th className="px-2!">Delay</Th>
          <Th className="px-2!">Signature</Th>
          <Th className="px-2!">Forwards</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100 max-lg:block dark:divide-slate-800">
        {events.map((e) => {
          const selected = selectedId === e.id;
          const open = () => onSelect(e.id);
          const who = e.userId ?? e.type;
          return (
            <tr
              key={e.id}
              data-testid="webhook-event-row"
              className={cn(rowClassName(selected), cardRow)}
              onClick={openOnRowClick(open)}
            >
              <Td className={cn(cardCell, "max-lg:order-1 max-lg:col-span-2 max-lg:text-xs")}>
                <ReceivedTime iso={e.firstReceivedAt} className={above} />
              </Td>
              {showConnection ? (
                <Td className="hidden px-2! 2xl:table-cell">
                  <span className={cn(above, "block max-w-32 truncate")} title={e.connectionName ?? e.connectionId}>
                    {e.connectionName ?? "—"}
                  </span>
                </Td>
              ) : null}
              <Td className={cn("hidden xl:table-cell", cardCell, "max-lg:order-7")}>
                <span className={cn(above, "inline-flex items-center gap-0.5")}>
                  <CardLabel>Event</CardLabel>
                  <code className="font-mono text-xs" title={e.eventId} data-testid="event-id">
                    {e.eventId.slice(0, 8)}
                  </code>
                  <CopyButton iconOnly tabIndex={-1} text={e.eventId} label={`Copy event id ${e.eventId}`} />
                </span>
              </Td>
              <Td className={cn(cardCell, "max-lg:order-first max-lg:col-span-2")}>
                <span className="flex min-w-0 max-w-40 items-center gap-1.5">
                  <RowLink
                    href={rowHref(query, "event", e.id)}
                    selected={selected}
                    onOpen={open}
                    title={who}
                    data-event-link={e.id}
                    className={cn(
                      "min-w-0 truncate",
                      e.userId ? "font-mono text-xs" : "text-slate-700 dark:text-slate-300",
                    )}
                  >
                    <span className="sr-only">{e.isTest ? "Test event of " : "Event of "}</span>
                    {who}
                  </RowLink>
                  {e.isTest ? (
                    <span className={cn(above, "shrink-0")} data-testid="test-badge">
                      <TestBadge />
                    </span>
                  ) : null}
                </span>
                {showConnection ? (
                  <span
                    className={cn(
                      above,
                      "block max-w-40 truncate text-xs text-slate-600 2xl:hidden dark:text-slate-300",
                    )}
                    title={e.connectionName ?? e.connectionId}
                    data-testid="event-connection"
                  >
                    {e.connectionName ?? "—"}
                  </span>
                ) : null}
              </Td>
              <Td className={cn(cardCell, "max-lg:order-3")}>
                <span
                  className={cn(above, "block max-w-36 truncate font-mono text-xs")}
                  title={e.verificationMethod ?? undefined}
                  data-testid="event-method"
                >
                  <CardLabel>Method</CardLabel>
                  {e.verificationMethod ?? "—"}
                </span>
                <span
                  className={cn(above, "hidden max-w-36 items-baseline gap-1 text-xs xl:flex")}
                  title={[e.deviceName, e.devicePlatform].filter(Boolean).join(", ") || undefined}
                  data-testid="event-device"
                >
                  <span className="truncate">{e.deviceName ?? "No device"}</span>
                  {e.devicePlatform ? (
                    <span className="shrink-0 text-slate-600 dark:text-slate-300">{e.devicePlatform}</span>
                  ) : null}
                </span>
              </Td>
              <Td className={cn(cardCell, "max-lg:order-4")}>
                <span
                  className={cn(above, "inline-flex items-center gap-1")}
                  title={`Received minus expiry${e.expiresAt ? ` (expired ${formatUtc(e.expiresAt)})` : ""}. The service may send the event up to 24 h after the expiry.`}
                  data-testid="event-delay"
                >
                  <CardLabel>Delay</CardLabel>
                  {formatDelay(e.firstReceivedAt, e.expiresAt)}
                  {isDelayBeyondSpec(e.firstReceivedAt, e.expiresAt) ? (
                    <Badge tone="warning" title="Later than the 24 h the specification allows">
                      &gt; 24 h
                    </Badge>
                  ) : null}
                </span>
              </Td>
              <Td className={cn(cardCell, "max-lg:order-5")}>
                <span className={cn(above, "inline-flex items-center gap-1.5")}>
                  <SignatureBadge status={e.signatureStatus} />
                  {e.deliveryCount > 1 ? (
                    <span
                      data-testid="delivery-count"
                      title={`Delivered ${e.deliveryCount} times (the service retried; stored once)`}
                      className="rounded bg-slate-100 px-1 text-xs font-medium text-slate-700 ring-1 ring-slate-300 ring-inset dark:bg-slate-800 dark:text-slate-300"
                    >
                      <span aria-hidden="true">×{e.deliveryCount}</span>
                      <span className="sr-only">{e.deliveryCount} deliveries</span>
                    </span>
                  ) : null}
                </span>
              </Td>
              <Td className={cn(cardCell, "max-lg:order-6")}>
                <span className={above} data-testid="event-forwards">
                  <ForwardingBadge forwarding={e.forwarding} />
                </span>
              </Td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
