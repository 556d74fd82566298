import type { Metadata } from "next";

import { AddTeamMember } from "@/components/team/add-team-member";
import { TeamPageHeader } from "@/components/team/team-page-header";
import { TeamTable } from "@/components/team/team-table";
import { requireRole } from "@/lib/auth/guards";
import { listTeam } from "@/lib/team/team";

export const metadata: Metadata = { title: "Team" };

export default async function TeamPage() {
  const user = await requireRole("admin");
  // Cheap reads of the console's own database (no service call), so the page awaits them; loading.tsx covers the wait.
  const members = await listTeam();
  return (
    <>
      <TeamPageHeader actions={<AddTeamMember />} />
      <TeamTable members={members} currentUserId={user.id} />
    </>
  );
}
