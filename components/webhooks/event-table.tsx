"use client";
import { PanelRightOpen } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Table, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { formatDelay, isDelayBeyondSpec } from "@/lib/webhooks/format";
import type { WebhookEventSummary } from "@/lib/webhooks/types";
import { SignatureBadge } from "./signature-badge";

export function EventTable({
  events,
  selectedId,
  onSelect,
  showConnection,
}: {
  events: WebhookEventSummary[];
  selectedId: number | null;
  onSelect: (id: number) => void;
  /** When the view spans connections, each row says whose event it is. */
  showConnection: boolean;
}) {
  return (
    <Table caption="Webhook events, newest first">
      <thead>
        <tr>
          <Th>Received</Th>
          {showConnection ? <Th>Connection</Th> : null}
          <Th>User</Th>
          <Th>Method</Th>
          <Th>Device</Th>
          <Th>Expired at</Th>
          <Th>Delay</Th>
          <Th>Deliveries</Th>
          <Th>Signature</Th>
          <Th>
            <span className="sr-only">Details</span>
          </Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {events.map((e) => (
          <tr key={e.id} data-testid="webhook-event-row" className={selectedId === e.id ? "bg-indigo-50" : undefined}>
            <Td>
              <Time iso={e.firstReceivedAt} />
            </Td>
            {showConnection ? <Td>{e.connectionName ?? "—"}</Td> : null}
            <Td className="font-mono text-xs">{e.userId ?? <span className="text-slate-400">{e.type}</span>}</Td>
            <Td>{e.verificationMethod ?? "—"}</Td>
            <Td className="min-w-28 whitespace-normal">
              {e.deviceName ?? "—"}
              {e.devicePlatform ? <span className="ml-1 text-xs text-slate-500">({e.devicePlatform})</span> : null}
            </Td>
            <Td>
              <Time iso={e.expiresAt} />
            </Td>
            <Td>
              <span title="Received minus expiry. The service may send the event up to 24 h after the expiry.">{formatDelay(e.firstReceivedAt, e.expiresAt)}</span>
              {isDelayBeyondSpec(e.firstReceivedAt, e.expiresAt) ? (
                <Badge tone="warning" title="Later than the 24 h the specification allows">
                  &gt; 24 h
                </Badge>
              ) : null}
            </Td>
            <Td>
              <span data-testid="delivery-count">{e.deliveryCount}</span>
            </Td>
            <Td>
              <SignatureBadge status={e.signatureStatus} />
            </Td>
            <Td>
              <Button
                variant="ghost"
                size="sm"
                title="Details"
                aria-pressed={selectedId === e.id}
                data-event-details={e.id}
                onClick={() => onSelect(e.id)}
              >
                <PanelRightOpen aria-hidden="true" className="size-4" />
                <span className="sr-only">Details of the event for {e.userId ?? e.type}</span>
              </Button>
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
