"use server";
import { revalidatePath } from "next/cache";
import type { SessionUser } from "@/lib/auth/guards";
import { runActionAs } from "@/lib/server-action";
import type { AddTeamMemberInput, ChangeRoleInput, SetDisabledInput, TeamMemberInput } from "@/lib/team/schemas";
import { addTeamMember, changeRole, createPasswordLink, revokeSessions, setDisabled, unlockMember } from "@/lib/team/team";

// Thin entry points: each checks the role itself (support is refused even when calling one directly);
// lib/team validates with the forms' schemas, re-checks the actor under lock where it matters, and audits.

function asAdmin<Result extends { ok: boolean }>(action: string, change: (actor: SessionUser) => Promise<Result>) {
  return runActionAs("admin", action, async (actor) => {
    const result = await change(actor);
    if (result.ok) revalidatePath("/team");
    return result;
  });
}

export async function addTeamMemberAction(input: AddTeamMemberInput) {
  return asAdmin("addTeamMemberAction", (actor) => addTeamMember(actor, input));
}

export async function createPasswordLinkAction(input: TeamMemberInput) {
  return asAdmin("createPasswordLinkAction", (actor) => createPasswordLink(actor, input));
}

export async function changeRoleAction(input: ChangeRoleInput) {
  return asAdmin("changeRoleAction", (actor) => changeRole(actor, input));
}

export async function setDisabledAction(input: SetDisabledInput) {
  return asAdmin("setDisabledAction", (actor) => setDisabled(actor, input));
}

export async function revokeSessionsAction(input: TeamMemberInput) {
  return asAdmin("revokeSessionsAction", (actor) => revokeSessions(actor, input));
}

export async function unlockSignInAction(input: TeamMemberInput) {
  return asAdmin("unlockSignInAction", (actor) => unlockMember(actor, input));
}
