"use client";
import { useQuery } from "@tanstack/react-query";
import { X } from "lucide-react";
import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { Alert, Card, Skeleton } from "@/components/ui/card";
import { Time } from "@/components/ui/time";
import { EXPIRED_DATA_FIELDS, type WebhookEventDetail } from "@/lib/webhooks/types";
import { CopyButton } from "@/components/ui/copy-button";
import { SignatureBadge } from "./signature-badge";

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

async function fetchEvent(id: number): Promise<WebhookEventDetail> {
  const response = await fetch(`/api/webhook-events/${id}`, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(((await response.json().catch(() => ({}))) as { errorDescription?: string }).errorDescription ?? `HTTP ${response.status}`);
  return (await response.json()) as WebhookEventDetail;
}

/** The detail panel below the table: brought into view with focus on its heading; Escape closes it. */
export function EventDetail({ id, onClose }: { id: number; onClose: () => void }) {
  const query = useQuery({ queryKey: ["webhook-event", id], queryFn: () => fetchEvent(id) });
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.scrollIntoView({ block: "start", behavior: "smooth" });
    heading.current?.focus({ preventScroll: true });
  }, [id]);
  return (
    <Card className="mt-4 scroll-mt-4">
      <section
        aria-labelledby="event-detail-title"
        aria-busy={query.isPending}
        onKeyDown={(event) => {
          if (event.key === "Escape") onClose();
        }}
      >
        <div className="mb-3 flex items-start justify-between gap-4">
          <h2 id="event-detail-title" ref={heading} tabIndex={-1} className="scroll-mt-4 text-base font-semibold outline-none">
            Event details
          </h2>
          <Button variant="ghost" size="sm" onClick={onClose}>
            <X aria-hidden="true" className="size-4" /> Close
          </Button>
        </div>
        {query.isPending ? (
          <Skeleton className="h-40 w-full" />
        ) : query.isError ? (
          <Alert tone="danger" title="The event could not be loaded">
            {query.error.message}
          </Alert>
        ) : (
          <Detail event={query.data} />
        )}
      </section>
    </Card>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[12rem_1fr] gap-2 py-1 text-sm">
      <dt className="text-slate-500">{label}</dt>
      <dd className="break-all text-slate-900">{children}</dd>
    </div>
  );
}

function Detail({ event }: { event: WebhookEventDetail }) {
  const pretty = (() => {
    try {
      return JSON.stringify(JSON.parse(event.rawBody), null, 2);
    } catch {
      return event.rawBody;
    }
  })();
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <div>
        <h3 className="mb-1 text-sm font-semibold">Envelope</h3>
        <dl>
          <Row label="Event id">{event.eventId}</Row>
          <Row label="Type">{event.type}</Row>
          <Row label="Tenant id">{event.tenantId}</Row>
          <Row label="Connection">{event.connectionName ?? event.connectionId}</Row>
          <Row label="Event time">
            <Time iso={event.envelopeTime} />
          </Row>
          <Row label="First received">
            <Time iso={event.firstReceivedAt} />
          </Row>
          <Row label="Last received">
            <Time iso={event.lastReceivedAt} />
          </Row>
          <Row label="Deliveries">
            <span data-testid="detail-delivery-count">{event.deliveryCount}</span>
          </Row>
          <Row label="Signature">
            <SignatureBadge status={event.signatureStatus} />
          </Row>
        </dl>
        <h3 className="mt-4 mb-1 text-sm font-semibold">Data</h3>
        <dl>
          {/* Fields the event did not carry are left out (the spec makes most of them optional). */}
          {dataFields.map((field) =>
            event[field] === null ? null : (
              <Row key={field} label={DATA_FIELD_LABELS[field]}>
                {event[field]}
              </Row>
            ),
          )}
          {event.createdAt ? (
            <Row label="Authenticator created">
              <Time iso={event.createdAt} />
            </Row>
          ) : null}
          {event.expiresAt ? (
            <Row label="Expired at">
              <Time iso={event.expiresAt} />
            </Row>
          ) : null}
        </dl>
      </div>
      <div>
        <div className="mb-1 flex items-center justify-between">
          <h3 className="text-sm font-semibold">Raw body{event.piiMasked ? " (email and phone masked)" : ""}</h3>
          <CopyButton text={event.rawBody} label="Copy body" />
        </div>
        <pre data-testid="raw-body" className="max-h-[28rem] overflow-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100">
          {pretty}
        </pre>
      </div>
    </div>
  );
}
