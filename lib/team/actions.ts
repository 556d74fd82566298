"use server";

import type { ActionResult } from "@/lib/call-action";
import { runAction } from "@/lib/server-action";
import { setPasswordWithLink } from "@/lib/team/password-link";
import type {
  AddTeamMemberInput,
  ChangeRoleInput,
  SetDisabledInput,
  SetPasswordInput,
  TeamMemberInput,
} from "@/lib/team/schemas";
import {
  addTeamMember,
  changeRole,
  createPasswordLink,
  revokeSessions,
  setDisabled,
  unlockMember,
} from "@/lib/team/team";

// Thin entry points: each checks the role itself (support is refused even when calling one directly);
// lib/team validates with the forms' schemas, re-checks the actor under lock where it matters, and audits.

const asAdmin = { role: "admin", revalidate: ["/team"] } as const;

export async function addTeamMemberAction(input: AddTeamMemberInput) {
  return runAction({ name: "addTeamMemberAction", ...asAdmin }, (actor) => addTeamMember(actor, input));
}

export async function createPasswordLinkAction(input: TeamMemberInput) {
  return runAction({ name: "createPasswordLinkAction", ...asAdmin }, (actor) => createPasswordLink(actor, input));
}

export async function changeRoleAction(input: ChangeRoleInput) {
  return runAction({ name: "changeRoleAction", ...asAdmin }, (actor) => changeRole(actor, input));
}

export async function setDisabledAction(input: SetDisabledInput) {
  return runAction({ name: "setDisabledAction", ...asAdmin }, (actor) => setDisabled(actor, input));
}

export async function revokeSessionsAction(input: TeamMemberInput) {
  return runAction({ name: "revokeSessionsAction", ...asAdmin }, (actor) => revokeSessions(actor, input));
}

export async function unlockSignInAction(input: TeamMemberInput) {
  return runAction({ name: "unlockSignInAction", ...asAdmin }, (actor) => unlockMember(actor, input));
}

/**
 * Public, like the set-password page: the link's token is the credential; lib/team validates it, uses it
 * once and audits.
 */
export async function setPasswordAction(input: SetPasswordInput): Promise<ActionResult> {
  return runAction({ name: "setPasswordAction", role: null }, () => setPasswordWithLink(input));
}
