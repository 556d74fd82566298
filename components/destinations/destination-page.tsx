import { PageHeader } from "@/components/ui/card";
import { Link } from "@/components/ui/link";
import type { AttemptFilters } from "@/lib/destinations/schemas";
import type { DeliveryStats, DestinationAttemptPage, DestinationDetail } from "@/lib/destinations/types";

import { AttemptList } from "./attempt-list";
import { DeliveryStatsCard } from "./delivery-stats";
import { DestinationCard } from "./destination-card";
import { EditDestination } from "./edit-destination";
import { RevealSecret } from "./reveal-secret";
import { SendTestEvent } from "./send-test-event";

/**
 * One destination's own page: its state and settings, its delivery rate and p95 latency over 24 h and 7 days, and
 * its attempts. Admins send it a test event, edit it and see or rotate its secret; support reads it, the URL's
 * origin only.
 */
export function DestinationPage({
  destination,
  isAdmin,
  attempts,
  filters,
  stats,
}: {
  destination: DestinationDetail;
  isAdmin: boolean;
  attempts: DestinationAttemptPage;
  filters: AttemptFilters;
  stats: DeliveryStats[];
}) {
  const ids = { connectionId: destination.connectionId, destinationId: destination.id };
  return (
    <>
      <PageHeader
        title={destination.name}
        description={
          <>
            A destination of {destination.connectionName}:{" "}
            {isAdmin ? "its events go to this address, signed as it says below." : "where its events are forwarded."}{" "}
            <Link href="/destinations" className="text-indigo-700 underline dark:text-indigo-300">
              All destinations
            </Link>
          </>
        }
        actions={
          isAdmin ? (
            <div className="flex flex-wrap gap-2">
              <SendTestEvent ids={ids} name={destination.name} />
              <EditDestination destination={destination} />
              {destination.hasSecret ? <RevealSecret ids={ids} name={destination.name} /> : null}
            </div>
          ) : null
        }
      />
      <div className="space-y-6">
        <DestinationCard destination={destination} connectionId={destination.connectionId} isAdmin={isAdmin} onPage />
        {/* Side by side only where each card is wide enough for its table (four columns, no sideways scroll). */}
        <div className="grid gap-6 2xl:grid-cols-2">
          {stats.map((window) => (
            <DeliveryStatsCard key={window.window} stats={window} />
          ))}
        </div>
        <AttemptList
          base={`/destinations/${destination.id}`}
          connectionId={destination.connectionId}
          page={attempts}
          outcome={filters.outcome}
          paged={filters.before !== undefined}
        />
      </div>
    </>
  );
}
