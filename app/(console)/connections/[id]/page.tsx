import type { Metadata } from "next";
import { notFound } from "next/navigation";

import { ConnectionForm } from "@/components/connections/connection-form";
import { connectionTabOf } from "@/components/connections/connection-tab-names";
import { ConnectionTabs } from "@/components/connections/connection-tabs";
import { DangerZone } from "@/components/connections/danger-zone";
import { DestinationList } from "@/components/destinations/destination-list";
import { StreamedConnectionHealthCard } from "@/components/overview/connection-health-card";
import { ConnectionHealthCardSkeleton } from "@/components/overview/loading-shapes";
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

import { readOpenAlerts } from "../../open-alerts";

export const metadata: Metadata = { title: "Connection" };

export default async function ConnectionPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireRole("admin");
  const tab = connectionTabOf((await searchParams).tab);
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
      <ConnectionTabs
        key={tab}
        initial={tab}
        panels={{
          settings: (
            <div className="grid items-start gap-6 xl:grid-cols-[minmax(0,36rem)_minmax(0,1fr)]">
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
                    openAlerts={readOpenAlerts()}
                    isAdmin
                  />
                </StreamedSection>
                <DangerZone connection={connection} />
              </div>
            </div>
          ),
          webhooks: (
            <div className="grid items-start gap-6 xl:grid-cols-2">
              <WebhookUrlCard connectionId={connection.id} />
              <TestEventCard connectionId={connection.id} hasServerKey={connection.keys.server !== undefined} />
            </div>
          ),
          destinations: (
            <DestinationList
              connection={connection}
              hasServerKey={connection.keys.server !== undefined}
              destinations={destinations}
              isAdmin
            />
          ),
        }}
      />
    </>
  );
}
