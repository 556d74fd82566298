import type { Metadata } from "next";
import { notFound } from "next/navigation";

import { ConnectionForm } from "@/components/connections/connection-form";
import { DeleteConnection } from "@/components/connections/delete-connection";
import { DestinationList } from "@/components/destinations/destination-list";
import {
  ConnectionHealthCardSkeleton,
  StreamedConnectionHealthCard,
} from "@/components/overview/connection-health-card";
import { Badge } from "@/components/ui/badge";
import { Card, PageHeader } from "@/components/ui/card";
import { StreamedSection } from "@/components/ui/streamed-section";
import { Time } from "@/components/ui/time";
import { TestEventCard } from "@/components/webhooks/test-event-card";
import { WebhookUrlCard } from "@/components/webhooks/webhook-url-card";
import { requireRole } from "@/lib/auth/guards";
import { getConnection } from "@/lib/connections/repository";
import { connectionIdSchema } from "@/lib/connections/schemas";
import { listDestinations } from "@/lib/destinations/destinations";
import { getConnectionHealth } from "@/lib/overview/overview";
import { regionLabels } from "@/lib/service/regions";

export const metadata: Metadata = { title: "Connection" };

export default async function ConnectionPage({ params }: { params: Promise<{ id: string }> }) {
  await requireRole("admin");
  const id = connectionIdSchema.safeParse((await params).id);
  // An id that is not a UUID names no connection: the same page as one that was deleted.
  const connection = id.success ? await getConnection(id.data) : undefined;
  if (!connection) notFound();
  const destinations = await listDestinations(connection.id, "admin");
  return (
    <>
      <PageHeader
        title={connection.name}
        description={
          <>
            {regionLabels[connection.region]} ·{" "}
            {connection.verifiedAt ? (
              <>
                <Badge tone="success">verified</Badge> key accepted <Time iso={connection.verifiedAt} />
              </>
            ) : (
              <Badge tone="warning">unverified</Badge>
            )}{" "}
            · created <Time iso={connection.createdAt} /> {connection.createdBy ? `by ${connection.createdBy}` : ""}
          </>
        }
      />
      <div className="grid gap-6 xl:grid-cols-[minmax(0,36rem)_1fr]">
        <Card>
          <h2 className="mb-4 text-base font-semibold">Settings and keys</h2>
          <ConnectionForm connection={connection} />
        </Card>
        <div className="space-y-6">
          <StreamedSection
            key={connection.id}
            title="The connection's webhook health"
            fallback={<ConnectionHealthCardSkeleton />}
          >
            <StreamedConnectionHealthCard
              title="Webhook health"
              health={getConnectionHealth([connection.id]).then(([health]) => health)}
              isAdmin
            />
          </StreamedSection>
          {/* Webhook URL card: owned by the webhook feature. */}
          <WebhookUrlCard connectionId={connection.id} />
          <TestEventCard connectionId={connection.id} hasServerKey={connection.keys.server !== undefined} />
          <DestinationList
            connection={connection}
            hasServerKey={connection.keys.server !== undefined}
            destinations={destinations}
            isAdmin
          />
          <Card>
            <h2 className="text-base font-semibold">Delete</h2>
            <p className="mt-1 mb-4 text-sm text-slate-600 dark:text-slate-400">
              Removes the connection, its keys, watch list and webhook history from the console.
            </p>
            <DeleteConnection id={connection.id} name={connection.name} region={connection.region} />
          </Card>
        </div>
      </div>
    </>
  );
}
