"use server";
import { revalidatePath } from "next/cache";
import { authorizeAction, isActionFailure, type ActionFailure, type SessionUser } from "@/lib/auth/guards";
import type { AddTeamMemberInput, ChangeRoleInput, SetDisabledInput, TeamMemberInput } from "@/lib/team/schemas";
import { addTeamMember, changeRole, createPasswordLink, revokeSessions, setDisabled, unlockMember } from "@/lib/team/team";

// Thin entry points: each checks the role itself (support is refused even when calling one directly);
// lib/team validates with the forms' schemas, re-checks the actor under lock where it matters, and audits.

async function asAdmin<Result extends { ok: boolean }>(change: (actor: SessionUser) => Promise<Result>): Promise<Result | ActionFailure> {
  const actor = await authorizeAction("admin");
  if (isActionFailure(actor)) return actor;
  const result = await change(actor);
  if (result.ok) revalidatePath("/team");
  return result;
}

export async function addTeamMemberAction(input: AddTeamMemberInput) {
  return asAdmin((actor) => addTeamMember(actor, input));
}

export async function createPasswordLinkAction(input: TeamMemberInput) {
  return asAdmin((actor) => createPasswordLink(actor, input));
}

export async function changeRoleAction(input: ChangeRoleInput) {
  return asAdmin((actor) => changeRole(actor, input));
}

export async function setDisabledAction(input: SetDisabledInput) {
  return asAdmin((actor) => setDisabled(actor, input));
}

export async function revokeSessionsAction(input: TeamMemberInput) {
  return asAdmin((actor) => revokeSessions(actor, input));
}

export async function unlockSignInAction(input: TeamMemberInput) {
  return asAdmin((actor) => unlockMember(actor, input));
}
