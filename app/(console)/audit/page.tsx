import type { Metadata } from "next";
import { EmptyState, PageHeader } from "@/components/ui/card";
import { requireRole } from "@/lib/auth/guards";

export const metadata: Metadata = { title: "Audit" };

export default async function Page() {
  await requireRole("admin");
  return (
    <>
      <PageHeader title="Audit" />
      <EmptyState title="Not available yet">This part of the console is being built.</EmptyState>
    </>
  );
}
