import type { Metadata } from "next";

import { AddTeamMember } from "@/components/team/add-team-member";
import type { TeamActions } from "@/components/team/team-actions";
import { TeamPageHeader } from "@/components/team/team-page-header";
import { TeamTable } from "@/components/team/team-table";
import { requireRole } from "@/lib/auth/guards";
import { listTeam } from "@/lib/team/team";

import {
  addTeamMemberAction,
  changeRoleAction,
  createPasswordLinkAction,
  revokeSessionsAction,
  setDisabledAction,
  unlockSignInAction,
} from "./actions";

export const metadata: Metadata = { title: "Team" };

const actions: TeamActions = {
  add: addTeamMemberAction,
  passwordLink: createPasswordLinkAction,
  changeRole: changeRoleAction,
  setDisabled: setDisabledAction,
  revokeSessions: revokeSessionsAction,
  unlock: unlockSignInAction,
};

export default async function TeamPage() {
  const user = await requireRole("admin");
  // Cheap reads of the console's own database (no service call), so the page awaits them; loading.tsx covers the wait.
  const members = await listTeam();
  return (
    <>
      <TeamPageHeader actions={<AddTeamMember addAction={actions.add} />} />
      <TeamTable members={members} currentUserId={user.id} actions={actions} />
    </>
  );
}
