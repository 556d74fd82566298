import { AddTeamMember } from "@/components/team/add-team-member";
import { TeamPageHeader } from "@/components/team/team-page-header";
import { TeamTableSkeleton } from "@/components/team/team-table";

export default function TeamLoading() {
  return (
    <>
      <TeamPageHeader actions={<AddTeamMember />} />
      <div aria-busy="true">
        <span className="sr-only">Loading the team…</span>
        <TeamTableSkeleton />
      </div>
    </>
  );
}
