import type { Metadata } from "next";
import { OverviewStats, OverviewStatsSkeleton } from "@/components/overview/overview-stats";
import { PageHeader } from "@/components/ui/card";
import { StreamedSection } from "@/components/ui/streamed-section";
import { requireUser } from "@/lib/auth/guards";
import { getOverview } from "@/lib/overview/overview";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  const user = await requireUser();
  return (
    <>
      <PageHeader title="Overview" description={`Signed in as ${user.email}.`} />
      <StreamedSection title="The overview numbers" fallback={<OverviewStatsSkeleton />}>
        <OverviewStats overview={getOverview()} isAdmin={user.role === "admin"} />
      </StreamedSection>
    </>
  );
}
