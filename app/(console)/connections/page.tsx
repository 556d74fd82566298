import type { Metadata } from "next";

import { ConnectionTable } from "@/components/connections/connection-table";
import { ConnectionsPageHeader } from "@/components/connections/connections-page-header";
import { requireRole } from "@/lib/auth/guards";
import { listConnections } from "@/lib/connections/repository";

export const metadata: Metadata = { title: "Connections" };

export default async function ConnectionsPage() {
  await requireRole("admin");
  // One cheap read of the console's own database (no service call), so the page awaits it; loading.tsx covers the wait.
  const connections = await listConnections();
  return (
    <>
      <ConnectionsPageHeader />
      <ConnectionTable connections={connections} />
    </>
  );
}
