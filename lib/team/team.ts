import "server-only";

import { asc, sql } from "drizzle-orm";

import { recordAudit } from "@/lib/audit/audit";
import { activeTokensByUser, revokeUserTokens } from "@/lib/auth/api-tokens";
import { removesAnAdmin } from "@/lib/auth/last-admin";
import { lockedOutEmails, unlockSignIn } from "@/lib/auth/lockouts";
import { nextSessionVersion, voidedPasswordLink } from "@/lib/auth/users";
import type { ActionResult } from "@/lib/call-action";
import { getDb } from "@/lib/db";
import { consoleUsers } from "@/lib/db/schema";

import { changeMember, guardedChange, memberColumns, updateTarget } from "./member-transactions";
import { newPasswordLink } from "./password-link";
import {
  addTeamMemberSchema,
  changeRoleSchema,
  invalid,
  setDisabledSchema,
  teamMemberSchema,
  type AddTeamMemberInput,
  type ChangeRoleInput,
  type SetDisabledInput,
  type TeamMemberInput,
} from "./schemas";
import type { AddTeamMemberResult, PasswordLink, TeamMember } from "./types";

/** The signed-in admin who makes a change: named in its audit record, and checked again inside the transaction. */
export type TeamActor = { id: string; email: string };

function issuerHost(issuer: string): string {
  try {
    return new URL(issuer).host;
  } catch {
    return issuer;
  }
}

/** Every console user, by name, with how they sign in and whether sign-in refuses them right now. */
export async function listTeam(now = new Date()): Promise<TeamMember[]> {
  const db = await getDb();
  const rows = await db
    .select({
      ...memberColumns,
      linkExpiresAt: consoleUsers.passwordSetupExpiresAt,
      lastSignInAt: consoleUsers.lastSignInAt,
    })
    .from(consoleUsers)
    .orderBy(sql`lower(${consoleUsers.name})`, asc(consoleUsers.email));
  const locked = await lockedOutEmails(
    rows.map((r) => r.email),
    now,
  );
  const tokens = await activeTokensByUser(now);
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    name: r.name,
    role: r.role,
    disabled: r.disabled,
    lockedOut: locked.has(r.email.toLowerCase()),
    signIn: {
      password: r.hasPassword,
      ssoHost: r.oidcIssuer ? issuerHost(r.oidcIssuer) : null,
      linkExpiresAt: r.linkExpiresAt?.toISOString() ?? null,
    },
    lastSignInAt: r.lastSignInAt?.toISOString() ?? null,
    apiTokens: tokens.get(r.id) ?? [],
  }));
}

function firstIssue<T extends string>(
  issues: ReadonlyArray<{ message: string; path: PropertyKey[] }>,
  fields: readonly T[],
): { error: string; field?: T } {
  const issue = issues[0];
  const field = fields.find((f) => f === issue?.path[0]);
  return { error: issue?.message ?? "Check the form.", ...(field ? { field } : {}) };
}

/**
 * A local user without a password, and the one-time link with which they set it. The email is unique
 * case-insensitively; a taken one is said on its field.
 */
export async function addTeamMember(actor: TeamActor, raw: AddTeamMemberInput): Promise<AddTeamMemberResult> {
  const parsed = addTeamMemberSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, ...firstIssue(parsed.error.issues, ["email", "name", "role"] as const) };
  const { email, name, role } = parsed.data;
  const { stored, link } = newPasswordLink();
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(consoleUsers)
      .values({ email, name, role, passwordHash: null, ...stored })
      .onConflictDoNothing()
      .returning({ id: consoleUsers.id, email: consoleUsers.email });
    if (!row)
      return { ok: false as const, field: "email" as const, error: "A console user with this email already exists." };
    await recordAudit(
      {
        actor,
        action: "user.created",
        outcome: "success",
        target: row.email,
        details: { role, passwordLinkExpiresAt: link.expiresAt },
      },
      tx,
    );
    return { ok: true as const, id: row.id, link };
  });
}

/**
 * Admin ↔ support. Ends the user's sessions (their role is in them). An admin may demote themselves while
 * another enabled admin remains; the last enabled admin may not be demoted by anyone.
 */
export async function changeRole(actor: TeamActor, raw: ChangeRoleInput): Promise<ActionResult> {
  const parsed = changeRoleSchema.safeParse(raw);
  if (!parsed.success) return invalid(parsed.error);
  const { userId, role } = parsed.data;
  return guardedChange(
    actor,
    userId,
    async (tx, target) => {
      if (target.role === role) return { ok: true };
      await updateTarget(tx, target, { role, sessionVersion: nextSessionVersion });
      await recordAudit(
        {
          actor,
          action: "user.role_changed",
          outcome: "success",
          target: target.email,
          details: { from: target.role, to: role },
        },
        tx,
      );
      await revokeUserTokens(tx, target.id, { reason: "role_lowered", role }, actor);
      return { ok: true };
    },
    (target) => removesAnAdmin(target, role),
  );
}

/**
 * Disable (ends every session, and voids a pending set-password link) or enable. Nobody disables their own
 * account: they would be signed out mid-change and only another admin could undo it. The last enabled
 * admin may not be disabled either.
 */
export async function setDisabled(actor: TeamActor, raw: SetDisabledInput): Promise<ActionResult> {
  const parsed = setDisabledSchema.safeParse(raw);
  if (!parsed.success) return invalid(parsed.error);
  const { userId, disabled } = parsed.data;
  if (disabled && userId === actor.id)
    return { ok: false, error: "You cannot disable your own account. Another admin can." };
  return guardedChange(
    actor,
    userId,
    async (tx, target) => {
      if (target.disabled === disabled) return { ok: true };
      await updateTarget(
        tx,
        target,
        disabled ? { disabled, sessionVersion: nextSessionVersion, ...voidedPasswordLink } : { disabled },
      );
      await recordAudit(
        { actor, action: disabled ? "user.disabled" : "user.enabled", outcome: "success", target: target.email },
        tx,
      );
      if (disabled) await revokeUserTokens(tx, target.id, { reason: "user_disabled" }, actor);
      return { ok: true };
    },
    (target) => disabled && target.role === "admin" && !target.disabled,
  );
}

/** Every session of the user ends at its next request, on every instance, and their API tokens with them. */
export async function revokeSessions(actor: TeamActor, raw: TeamMemberInput): Promise<ActionResult> {
  const parsed = teamMemberSchema.safeParse(raw);
  if (!parsed.success) return invalid(parsed.error);
  return changeMember(parsed.data.userId, async (tx, target) => {
    await updateTarget(tx, target, { sessionVersion: nextSessionVersion });
    await recordAudit({ actor, action: "user.sessions_revoked", outcome: "success", target: target.email }, tx);
    await revokeUserTokens(tx, target.id, { reason: "sessions_revoked" }, actor);
    return { ok: true };
  });
}

/** Clears the user's failed sign-in attempts, so every address may try again at once. */
export async function unlockMember(actor: TeamActor, raw: TeamMemberInput): Promise<ActionResult> {
  const parsed = teamMemberSchema.safeParse(raw);
  if (!parsed.success) return invalid(parsed.error);
  return changeMember(parsed.data.userId, async (tx, target) => {
    const cleared = await unlockSignIn(target.email, tx);
    await recordAudit(
      {
        actor,
        action: "user.unlocked",
        outcome: "success",
        target: target.email,
        details: { clearedAttempts: cleared },
      },
      tx,
    );
    return { ok: true };
  });
}

/**
 * A new one-time set-password link for a user who signs in with a password or has not set one yet (a
 * forgotten password, an expired invitation). It replaces any earlier link; the current password keeps
 * working until the link is used.
 */
export async function createPasswordLink(
  actor: TeamActor,
  raw: TeamMemberInput,
): Promise<ActionResult<{ link: PasswordLink }>> {
  const parsed = teamMemberSchema.safeParse(raw);
  if (!parsed.success) return invalid(parsed.error);
  return changeMember<{ link: PasswordLink }>(parsed.data.userId, async (tx, target) => {
    if (target.disabled) return { ok: false, error: `${target.name} is disabled. Enable the account first.` };
    if (!target.hasPassword && target.oidcIssuer) {
      return {
        ok: false,
        error: `${target.name} signs in through single sign-on (${issuerHost(target.oidcIssuer)}), not with a password.`,
      };
    }
    const { stored, link } = newPasswordLink();
    await updateTarget(tx, target, stored);
    await recordAudit(
      {
        actor,
        action: "user.password_link_created",
        outcome: "success",
        target: target.email,
        details: { expiresAt: link.expiresAt },
      },
      tx,
    );
    return { ok: true, link };
  });
}
