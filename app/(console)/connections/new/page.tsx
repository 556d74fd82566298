import type { Metadata } from "next";

import { ConnectionForm } from "@/components/connections/connection-form";
import { Card, PageHeader } from "@/components/ui/card";
import { requireRole } from "@/lib/auth/guards";

export const metadata: Metadata = { title: "New connection" };

export default async function NewConnectionPage() {
  await requireRole("admin");
  return (
    <>
      <PageHeader
        title="New connection"
        description="The key is checked against the region before it is saved, and stored encrypted."
      />
      <Card>
        <ConnectionForm />
      </Card>
    </>
  );
}
