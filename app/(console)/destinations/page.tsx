import type { Metadata } from "next";

import { NoConnection } from "@/components/connections/no-connection";
import { DestinationList } from "@/components/destinations/destination-list";
import { PageHeader } from "@/components/ui/card";
import { getConnection } from "@/lib/connections/connections";
import { requireSelectedConnection } from "@/lib/connections/current";
import { listDestinations } from "@/lib/destinations/destinations";

export const metadata: Metadata = { title: "Destinations" };

const title = "Destinations";

export default async function DestinationsPage() {
  const { user, connection } = await requireSelectedConnection("support");
  if (!connection) return <NoConnection title={title} isAdmin={user.role === "admin"} />;
  // Database reads only: cheap enough to await before the first paint.
  const [summary, destinations] = await Promise.all([
    getConnection(connection.id),
    listDestinations(connection.id, user.role),
  ]);
  return (
    <>
      <PageHeader
        title={title}
        description={`Where ${connection.name}'s events go after the console has stored them: your application's own handlers, signed as the service or with Standard Webhooks.`}
      />
      <DestinationList
        connection={connection}
        hasServerKey={summary?.keys.server !== undefined}
        destinations={destinations}
        isAdmin={user.role === "admin"}
        withHeading={false}
      />
    </>
  );
}
