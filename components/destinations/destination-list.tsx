"use client";

import { EmptyState } from "@/components/ui/card";
import type { DestinationSummary } from "@/lib/destinations/types";

import { AddDestination } from "./add-destination";
import { DestinationCard } from "./destination-card";
import { DestinationRate } from "./destination-rate";

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
              <DestinationCard
                destination={destination}
                connectionId={connection.id}
                isAdmin={isAdmin}
                rateControl={
                  <DestinationRate
                    ids={{ connectionId: connection.id, destinationId: destination.id }}
                    name={destination.name}
                    maxPerSecond={destination.maxPerSecond}
                    disabled={false}
                  />
                }
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
