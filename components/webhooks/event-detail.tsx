"use client";

import { useQuery } from "@tanstack/react-query";
import { UserSearch } from "lucide-react";

import { EventForwards } from "@/components/destinations/event-forwards";
import { Alert } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Link } from "@/components/ui/link";
import { ExactTime } from "@/components/ui/time";
import { curlReplayCommand } from "@/lib/webhooks/curl";
import { EXPIRED_DATA_FIELDS, type WebhookEventDetail } from "@/lib/webhooks/types";

import { DetailList, DetailRow } from "./detail-list";
import { EventDetailSkeleton } from "./event-detail-skeleton";
import { SignatureBadge } from "./signature-badge";
import { TestBadge } from "./test-badge";

// Times are shown with <Time> in their own rows.
const dataFields = EXPIRED_DATA_FIELDS.filter((f) => f !== "createdAt" && f !== "expiresAt");

/** The spec's field names (spec 6.1) as a reader says them; the raw body beside keeps the names as sent. */
const DATA_FIELD_LABELS: Record<(typeof dataFields)[number], string> = {
  userId: "User id",
  verificationMethod: "Verification method",
  userAuthenticatorId: "User authenticator id",
  deviceName: "Device name",
  devicePlatform: "Device platform",
  email: "Email",
  phoneNumber: "Phone number",
  credentialId: "Credential id",
  aaguid: "AAGUID",
  credentialName: "Credential name",
};

class NotFound extends Error {}

async function fetchEvent(id: number): Promise<WebhookEventDetail> {
  const response = await fetch(`/api/webhook-events/${id}`, { headers: { Accept: "application/json" } });
  if (response.status === 404) throw new NotFound();
  if (!response.ok)
    throw new Error(
      ((await response.json().catch(() => ({}))) as { errorDescription?: string }).errorDescription ??
        `HTTP ${response.status}`,
    );
  return (await response.json()) as WebhookEventDetail;
}

export function EventNotFound({ param }: { param: string }) {
  return (
    <Alert tone="warning" title="Event not found">
      No stored event has the id <code className="break-all">{param}</code>: the link may be mistyped, or the event was
      purged after the retention period. The list behind this drawer is unchanged.
    </Alert>
  );
}

/** The open event's detail, read on demand (the raw body is not in the list), masked for support by the server. */
export function EventDetail({ id, canForward }: { id: number; canForward: boolean }) {
  const query = useQuery({
    queryKey: ["webhook-event", id],
    queryFn: () => fetchEvent(id),
    retry: (count, error) => !(error instanceof NotFound) && count < 1,
  });
  if (query.isPending) return <EventDetailSkeleton />;
  if (query.isError) {
    return query.error instanceof NotFound ? (
      <EventNotFound param={String(id)} />
    ) : (
      <Alert tone="danger" title="The event could not be loaded">
        {query.error.message}
      </Alert>
    );
  }
  return <Detail event={query.data} canForward={canForward} />;
}

function Detail({ event, canForward }: { event: WebhookEventDetail; canForward: boolean }) {
  const pretty = (() => {
    try {
      return JSON.stringify(JSON.parse(event.rawBody), null, 2);
    } catch {
      return event.rawBody;
    }
  })();
  return (
    <div className="space-y-5" data-testid="event-detail">
      {event.isTest ? (
        <p
          className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300"
          data-testid="detail-test-badge"
        >
          <TestBadge />
          Sent by the console&apos;s “Send a test event” (on the connection&apos;s page), not by the service.
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <CopyButton text={event.rawBody} label="Copy raw body" />
        <CopyButton text={curlReplayCommand(event.rawBody, event.connectionName)} label="Copy as cURL" />
        {/* A test event's user is made up: nothing to look up. */}
        {event.userId && !event.isTest ? (
          <Link
            href={`/users?${new URLSearchParams({ userId: event.userId, lookup: "1" }).toString()}`}
            className="inline-flex items-center gap-2 rounded-md px-2.5 py-1.5 text-sm font-medium text-indigo-700 dark:text-indigo-300 ring-1 ring-slate-300 ring-inset hover:bg-slate-50"
          >
            <UserSearch aria-hidden="true" className="size-4" /> Look up this user
          </Link>
        ) : null}
      </div>
      <section aria-labelledby="event-envelope">
        <h3 id="event-envelope" className="mb-1 text-sm font-semibold">
          Envelope
        </h3>
        <DetailList>
          <DetailRow label="Event id">
            <span className="inline-flex items-center gap-1 break-all">
              {event.eventId}
              <CopyButton iconOnly text={event.eventId} label="Copy event id" />
            </span>
          </DetailRow>
          <DetailRow label="Type">{event.type}</DetailRow>
          <DetailRow label="Tenant id">{event.tenantId}</DetailRow>
          <DetailRow label="Connection">{event.connectionName ?? event.connectionId}</DetailRow>
          <DetailRow label="Event time">
            <ExactTime iso={event.envelopeTime} />
          </DetailRow>
          <DetailRow label="First received">
            <ExactTime iso={event.firstReceivedAt} />
          </DetailRow>
          <DetailRow label="Last received">
            <ExactTime iso={event.lastReceivedAt} />
          </DetailRow>
          <DetailRow label="Deliveries">
            <span data-testid="detail-delivery-count">{event.deliveryCount}</span>
          </DetailRow>
          <DetailRow label="Signature">
            <SignatureBadge status={event.signatureStatus} full />
          </DetailRow>
        </DetailList>
      </section>
      <section aria-labelledby="event-data">
        <h3 id="event-data" className="mb-1 text-sm font-semibold">
          Data
        </h3>
        <DetailList>
          {/* Fields the event did not carry are left out (the spec makes most of them optional). */}
          {dataFields.map((field) =>
            event[field] === null ? null : (
              <DetailRow key={field} label={DATA_FIELD_LABELS[field]}>
                {event[field]}
              </DetailRow>
            ),
          )}
          {event.createdAt ? (
            <DetailRow label="Authenticator created">
              <ExactTime iso={event.createdAt} />
            </DetailRow>
          ) : null}
          {event.expiresAt ? (
            <DetailRow label="Expired at">
              <ExactTime iso={event.expiresAt} />
            </DetailRow>
          ) : null}
        </DetailList>
      </section>
      <EventForwards id={event.id} connectionId={event.connectionId} eventId={event.eventId} canResend={canForward} />
      <section aria-labelledby="event-raw">
        <h3 id="event-raw" className="mb-1 text-sm font-semibold">
          Raw body{event.piiMasked ? " (email and phone masked)" : ""}
        </h3>
        {/* Scrolls inside itself: a long line must not widen the drawer, nor the page on a phone. */}
        <pre
          data-testid="raw-body"
          tabIndex={0}
          aria-label="Raw body"
          className="max-h-[28rem] max-w-full overflow-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100"
        >
          {pretty}
        </pre>
      </section>
    </div>
  );
}
