"use client";

import { useRouter } from "next/navigation";

import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Link } from "@/components/ui/link";
import { Time } from "@/components/ui/time";
import { toast } from "@/components/ui/toast";
import { TypedConfirmDialog } from "@/components/ui/typed-confirm-dialog";
import { useSerialAction } from "@/components/ui/use-serial-action";
import { callAction } from "@/lib/call-action";
import { removeDestinationAction, setDestinationEnabledAction } from "@/lib/destinations/actions";
import { AUTO_PAUSE_HOURS, BREAKER_THRESHOLD, BREAKER_WORDS } from "@/lib/destinations/constants";
import type { DestinationSummary } from "@/lib/destinations/types";

import { percent } from "./format";
import { RotateSecret } from "./rotate-secret";
import { StateBadge } from "./state-badge";

const signingLabels = { service: "As the service", standard_webhooks: "Standard Webhooks" } as const;

/**
 * One destination with its health over 24 h: in the list (its name links to its own page) and on that page
 * (`onPage`). Admins turn it off and on, resume it, change its cap, rotate its secret and remove it.
 */
export function DestinationCard({
  destination,
  connectionId,
  isAdmin,
  onPage = false,
  rateControl = null,
}: {
  destination: DestinationSummary;
  connectionId: string;
  isAdmin: boolean;
  onPage?: boolean;
  /** The list's "Change cap" (the page edits the cap in its Edit dialog): kept out of the page's bundle. */
  rateControl?: React.ReactNode;
}) {
  const router = useRouter();
  const [pending, run] = useSerialAction();
  const ids = { connectionId, destinationId: destination.id };
  const { health } = destination;
  const setEnabled = (enabled: boolean, done: string) =>
    run(async () => {
      const result = await callAction(() => setDestinationEnabledAction({ ...ids, enabled }));
      if (result.ok) toast.success(done);
      else toast.error(result.error);
    });
  const Heading = onPage ? "h2" : "h3";

  return (
    <Card className="space-y-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <Heading className="flex flex-wrap items-center gap-2 font-semibold">
            {onPage ? (
              "State"
            ) : (
              <Link href={`/destinations/${destination.id}`} className="hover:underline">
                {destination.name}
              </Link>
            )}{" "}
            <StateBadge health={health} />
          </Heading>
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
            {rateControl}
            {destination.signing === "standard_webhooks" ? (
              <RotateSecret ids={ids} name={destination.name} disabled={pending} />
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
              onDone={() => {
                toast.success(`Removed ${destination.name}.`);
                if (onPage) router.push("/destinations");
              }}
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
        <Alert tone="warning" title={BREAKER_WORDS}>
          {BREAKER_THRESHOLD} attempts in a row failed (the first <Time iso={health.tripped.since} />
          ), so the console sends one delivery at a time to see whether it answers again; the others wait (
          {health.pending} waiting) and go as soon as one is delivered.
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
