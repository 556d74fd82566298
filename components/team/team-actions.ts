import type { ActionResult } from "@/lib/call-action";
import type { AddTeamMemberInput, ChangeRoleInput, SetDisabledInput, TeamMemberInput } from "@/lib/team/schemas";
import type { AddTeamMemberResult, PasswordLink } from "@/lib/team/types";

/** The team page's server actions, handed down as props (components never import app/). */
export type TeamActions = {
  add: (input: AddTeamMemberInput) => Promise<AddTeamMemberResult>;
  passwordLink: (input: TeamMemberInput) => Promise<ActionResult<{ link: PasswordLink }>>;
  changeRole: (input: ChangeRoleInput) => Promise<ActionResult>;
  setDisabled: (input: SetDisabledInput) => Promise<ActionResult>;
  revokeSessions: (input: TeamMemberInput) => Promise<ActionResult>;
  unlock: (input: TeamMemberInput) => Promise<ActionResult>;
};
