import type { Metadata } from "next";

import { NoConnection } from "@/components/connections/no-connection";
import { DataPointLookupForm } from "@/components/data-points/lookup-form";
import { DataPointLookupResult, DataPointLookupResultSkeleton } from "@/components/data-points/lookup-result";
import { WatchList } from "@/components/data-points/watch-list";
import { PageHeader } from "@/components/ui/card";
import { StreamedSection } from "@/components/ui/streamed-section";
import { requireSelectedConnection } from "@/lib/connections/current";
import { listWatches, lookUpDataPoint } from "@/lib/data-points/data-points";
import { dataPointIdSchema } from "@/lib/data-points/schemas";

export const metadata: Metadata = { title: "Data points" };

const title = "Data points";

export default async function DataPointsPage({ searchParams }: { searchParams: Promise<{ id?: string | string[] }> }) {
  const { user, connection } = await requireSelectedConnection("support");
  if (!connection) return <NoConnection title={title} isAdmin={user.role === "admin"} />;
  const { id: rawId } = await searchParams;
  const asked = typeof rawId === "string" ? dataPointIdSchema.safeParse(rawId) : null;
  const id = asked?.success ? asked.data : null;
  const canEdit = user.role === "admin";
  // A database read: cheap enough to await, and the lookup's "watched" flag comes from it.
  const watches = await listWatches(connection.id);
  return (
    <>
      <PageHeader
        title={title}
        description={`Custom data points of ${connection.name}. Look one up by id; watch the ones you care about.`}
      />
      <div className="space-y-6">
        <DataPointLookupForm
          initialId={typeof rawId === "string" ? rawId : ""}
          linkError={asked?.error?.issues[0]?.message}
        />
        {id ? (
          <StreamedSection
            key={id}
            title="The data point"
            fallback={<DataPointLookupResultSkeleton canWatch={canEdit} />}
          >
            <DataPointLookupResult
              lookup={lookUpDataPoint(connection.id, id)}
              id={id}
              connection={connection}
              canWatch={canEdit}
              watched={watches.some((w) => w.dataPointId === id)}
            />
          </StreamedSection>
        ) : null}
        <WatchList connectionId={connection.id} watches={watches} canEdit={canEdit} />
      </div>
    </>
  );
}
