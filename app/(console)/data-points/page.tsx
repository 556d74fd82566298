import type { Metadata } from "next";
import { NoConnection } from "@/components/connections/no-connection";
import { PageHeader } from "@/components/ui/card";
import { requireRole } from "@/lib/auth/guards";
import { getSelectedConnection } from "@/lib/connections/current";
import { dataPointIdSchema } from "@/lib/data-points/schemas";
import { listWatches, lookUpDataPoint } from "@/lib/data-points/data-points";
import { DataPointLookupForm, DataPointLookupResult, WatchList } from "./client";

export const metadata: Metadata = { title: "Data points" };

export default async function DataPointsPage({ searchParams }: { searchParams: Promise<{ id?: string | string[] }> }) {
  const user = await requireRole("support");
  const { id: rawId } = await searchParams;
  const selected = await getSelectedConnection();
  if (!selected) {
    return (
      <>
        <NoConnection title="Data points" isAdmin={user.role === "admin"} />
      </>
    );
  }
  const parsedId = dataPointIdSchema.safeParse(typeof rawId === "string" ? rawId : "");
  const [lookup, watches] = await Promise.all([
    parsedId.success ? lookUpDataPoint(selected.id, parsedId.data) : Promise.resolve(null),
    listWatches(selected.id),
  ]);
  const canEdit = user.role === "admin";
  return (
    <>
      <PageHeader title="Data points" description={`Custom data points of ${selected.name}. Look one up by id; watch the ones you care about.`} />
      <div className="space-y-6">
        <DataPointLookupForm initialId={parsedId.success ? parsedId.data : ""} />
        {lookup && parsedId.success ? (
          <DataPointLookupResult
            lookup={lookup}
            id={parsedId.data}
            connection={selected}
            canWatch={canEdit}
            watched={watches.some((w) => w.dataPointId === parsedId.data)}
          />
        ) : null}
        <WatchList connectionId={selected.id} watches={watches} canEdit={canEdit} />
      </div>
    </>
  );
}
