"use client";

import { useState } from "react";

import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Alert, Card, EmptyState, Skeleton } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { SecretReveal } from "@/components/ui/secret-reveal";
import { Time } from "@/components/ui/time";
import { toast } from "@/components/ui/toast";
import { TypedConfirmDialog } from "@/components/ui/typed-confirm-dialog";
import { useSerialAction } from "@/components/ui/use-serial-action";
import { callAction } from "@/lib/call-action";
import {
  removeDestinationAction,
  rotateDestinationSecretAction,
  setDestinationEnabledAction,
} from "@/lib/destinations/actions";
import { AUTO_PAUSE_HOURS } from "@/lib/destinations/constants";
import type { DestinationState, DestinationSummary } from "@/lib/destinations/types";

import { AddDestination } from "./add-destination";
import { DestinationRate } from "./destination-rate";
import { ProbeWhen } from "./probe-when";

const stateBadges: Record<DestinationState, { tone: BadgeTone; label: string }> = {
  delivered: { tone: "success", label: "Delivering" },
  failing: { tone: "danger", label: "Failing" },
  tripped: { tone: "warning", label: "Tripped: probing" },
  paused: { tone: "warning", label: "Paused" },
  off: { tone: "neutral", label: "Off" },
};

const signingLabels = { service: "As the service", standard_webhooks: "Standard Webhooks" } as const;

const percent = (rate: number) => `${(rate * 100).toFixed(rate === 1 || rate === 0 ? 0 : 1)} %`;

/**
 * A connection's forwarding destinations with their health over 24 h. Everyone sees them; admins add,
 * turn off and on, resume, rotate a secret and remove.
 */
export function DestinationList({
  connection,
  hasServerKey,
  destinations,
  isAdmin,
  withHeading = true,
}: {
  connection: { id: string; name: string };
  hasServerKey: boolean;
  destinations: DestinationSummary[];
  /** False for support: the list is read-only. */
  isAdmin: boolean;
  /** False on the Destinations page, whose own heading says it. */
  withHeading?: boolean;
}) {
  return (
    <section
      aria-labelledby={withHeading ? "destinations-heading" : undefined}
      aria-label={withHeading ? undefined : "Destinations"}
      className="space-y-3"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        {withHeading ? (
          <div>
            <h2 id="destinations-heading" className="text-base font-semibold">
              Destinations
            </h2>
            <p className="text-sm text-slate-600 dark:text-slate-400">
              Every event {connection.name} receives is forwarded to each destination that takes it, with retries.
            </p>
          </div>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {destinations.length === 1 ? "1 destination" : `${destinations.length} destinations`}; each event is sent to
            every destination that takes it, retried for about a day.
          </p>
        )}
        {isAdmin ? <AddDestination connectionId={connection.id} hasServerKey={hasServerKey} /> : null}
      </div>
      {destinations.length === 0 ? (
        <EmptyState title="No destinations yet">
          {isAdmin
            ? "Add your application's webhook handler here to keep receiving the events while the console logs them. Signed as the service, your existing verification code accepts them unchanged."
            : "An administrator can add the handlers this connection's events are forwarded to."}
        </EmptyState>
      ) : (
        <ul className="space-y-3">
          {destinations.map((destination) => (
            <li key={destination.id} data-testid={`destination-${destination.name}`}>
              <DestinationCard destination={destination} connectionId={connection.id} isAdmin={isAdmin} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function DestinationCard({
  destination,
  connectionId,
  isAdmin,
}: {
  destination: DestinationSummary;
  connectionId: string;
  isAdmin: boolean;
}) {
  const [pending, run] = useSerialAction();
  const [secret, setSecret] = useState<string | null>(null);
  const ids = { connectionId, destinationId: destination.id };
  const { health } = destination;
  const badge = stateBadges[health.state];
  const setEnabled = (enabled: boolean, done: string) =>
    run(async () => {
      const result = await callAction(() => setDestinationEnabledAction({ ...ids, enabled }));
      if (result.ok) toast.success(done);
      else toast.error(result.error);
    });
  const rotate = () =>
    run(async () => {
      const result = await callAction(() => rotateDestinationSecretAction(ids));
      if (!result.ok) toast.error(result.error);
      else if (result.secret) setSecret(result.secret);
    });

  return (
    <Card className="space-y-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="flex flex-wrap items-center gap-2 font-semibold">
            {destination.name} <Badge tone={badge.tone}>{badge.label}</Badge>
            {health.state === "tripped" && health.tripped ? (
              <span className="text-xs font-normal text-slate-600 dark:text-slate-400">
                <ProbeWhen probeAt={health.tripped.probeAt} />
              </span>
            ) : null}
          </h3>
          <code className="mt-1 block text-sm break-all text-slate-600 dark:text-slate-400">{destination.url}</code>
        </div>
        {isAdmin ? (
          <div className="flex flex-wrap gap-2">
            {destination.enabled ? (
              <Button
                size="sm"
                variant="secondary"
                disabled={pending}
                onClick={() => setEnabled(false, `${destination.name} is off: nothing is queued for it.`)}
              >
                Turn off
              </Button>
            ) : (
              <Button
                size="sm"
                variant="secondary"
                disabled={pending}
                onClick={() => setEnabled(true, `${destination.name} is on again.`)}
              >
                Turn on
              </Button>
            )}
            <DestinationRate
              ids={ids}
              name={destination.name}
              maxPerSecond={destination.maxPerSecond}
              disabled={pending}
            />
            {destination.signing === "standard_webhooks" ? (
              <Button size="sm" variant="secondary" disabled={pending} onClick={rotate}>
                Rotate secret
              </Button>
            ) : null}
            <TypedConfirmDialog
              trigger={(open) => (
                <Button size="sm" variant="ghost" disabled={pending} onClick={open}>
                  Remove
                </Button>
              )}
              title={`Remove ${destination.name}`}
              expected={destination.name}
              confirmLabel="Remove destination"
              action={() => removeDestinationAction(ids)}
              onDone={() => toast.success(`Removed ${destination.name}.`)}
            >
              <p>
                Events are no longer forwarded to it. Its queue ({health.pending} waiting) and its attempts are removed
                with it; the log keeps every event.
              </p>
            </TypedConfirmDialog>
          </div>
        ) : null}
      </div>
      {health.signingProblem ? (
        <Alert tone="danger" title="Cannot sign its forwards">
          {health.signingProblem} Its deliveries fail until then; every other destination is unaffected.
        </Alert>
      ) : null}
      {health.state === "tripped" && health.tripped ? (
        <Alert tone="warning" title="Tripped: probing">
          After a run of failed attempts since <Time iso={health.tripped.since} />, the console sends one delivery at a
          time to see whether it answers again; the others wait ({health.pending} waiting) and go as soon as a probe is
          delivered.
        </Alert>
      ) : null}
      {health.state === "paused" ? (
        <Alert tone="warning" title="Paused">
          Every attempt failed for {AUTO_PAUSE_HOURS} hours, so the console stopped sending{" "}
          <Time iso={health.pausedAt} />. Events still queue ({health.pending} waiting)
          {isAdmin ? ": resume once the receiver is fixed to send them." : "; an administrator can resume it."}
          {isAdmin ? (
            <span className="mt-2 block">
              <Button
                size="sm"
                disabled={pending}
                onClick={() => setEnabled(true, `${destination.name} resumed: the queued events are on their way.`)}
              >
                Resume
              </Button>
            </span>
          ) : null}
        </Alert>
      ) : null}
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
        <Fact term="Signing">{signingLabels[destination.signing]}</Fact>
        <Fact term="Events">{destination.eventTypes?.join(", ") ?? "All types"}</Fact>
        <Fact term="Methods">{destination.verificationMethods?.join(", ") ?? "All methods"}</Fact>
        <Fact term="Unverified events">
          {destination.signing === "service"
            ? "Never (signs as the service)"
            : destination.includeUnverified
              ? "Included, marked unsigned"
              : "Not forwarded"}
        </Fact>
        <Fact term="Cap">
          {destination.maxPerSecond === null ? "No cap" : `${destination.maxPerSecond} per second`}
        </Fact>
        <Fact term="Waiting">{health.pending}</Fact>
        <Fact term="Delivered, 24 h">
          {health.successRate === null ? "No attempts" : `${percent(health.successRate)} of ${health.attempts24h}`}
        </Fact>
        <Fact term="p95 latency, 24 h">{health.p95LatencyMs === null ? "—" : `${health.p95LatencyMs} ms`}</Fact>
        <Fact term="Failing since">{health.failingSince ? <Time iso={health.failingSince} /> : "—"}</Fact>
        <Fact term="Added">
          <Time iso={destination.createdAt} />
        </Fact>
      </dl>
      {destination.previousSecretExpiresAt ? (
        <p className="text-xs text-slate-600 dark:text-slate-400">
          The previous secret still signs beside the new one until <Time iso={destination.previousSecretExpiresAt} />.
        </p>
      ) : null}
      <Dialog
        open={secret !== null}
        onClose={() => setSecret(null)}
        title={`New signing secret of ${destination.name}`}
      >
        {secret ? (
          <SecretReveal
            name={destination.name}
            secret={secret}
            rotated
            testId="destination-secret"
            onDone={() => setSecret(null)}
          />
        ) : null}
      </Dialog>
    </Card>
  );
}

function Fact({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-500 dark:text-slate-400">{term}</dt>
      <dd className="break-words text-slate-900 dark:text-slate-100">{children}</dd>
    </div>
  );
}

/** The list's shape while it loads: the heading and two cards. */
export function DestinationListSkeleton() {
  return (
    <div className="space-y-3" aria-hidden="true">
      <Skeleton className="h-6 w-40" />
      <Skeleton className="h-36 w-full" />
      <Skeleton className="h-36 w-full" />
    </div>
  );
}
