import "server-only";

import { asc, eq, sql, type SQL } from "drizzle-orm";

import type { AuditActor } from "@/lib/audit/audit";
import { getDb, type Executor } from "@/lib/db";
import { consoleUsers, type ConsoleUser } from "@/lib/db/schema";

import { revokeUserTokens, type UserAccessEnded } from "./api-tokens";
import { hashPassword } from "./password";
import type { Role } from "./roles";
import { newPasswordSchema, newUserSchema, type NewUserInput } from "./schemas";

export type PublicUser = Pick<ConsoleUser, "id" | "email" | "name" | "role" | "disabled" | "createdAt">;

/** Who a console user is and whether they may sign in; never how (no hash, no identity, no link). */
export const userIdentityColumns = {
  id: consoleUsers.id,
  email: consoleUsers.email,
  name: consoleUsers.name,
  role: consoleUsers.role,
  disabled: consoleUsers.disabled,
};

const publicColumns = { ...userIdentityColumns, createdAt: consoleUsers.createdAt };

/** For an UPDATE that must end the user's sessions: each session carries the version it was issued under. */
export const nextSessionVersion = sql`${consoleUsers.sessionVersion} + 1`;

/**
 * A user as the pages name them, in SQL: the name, or the email when it has none (null for no user, a left join's
 * miss).
 */
export const userShownName = sql<string | null>`coalesce(nullif(${consoleUsers.name}, ''), ${consoleUsers.email})`;

/** For an UPDATE after which a pending set-password link must stop working (disabled, or linked to single sign-on). */
export const voidedPasswordLink = { passwordSetupTokenHash: null, passwordSetupExpiresAt: null };

const byEmail = (email: string) => eq(sql`lower(${consoleUsers.email})`, email.trim().toLowerCase());

export class UserExistsError extends Error {
  override name = "UserExistsError";
}

/** Like every write here, takes the caller's transaction as `executor` so the change commits with its audit record. */
export async function createUser(input: NewUserInput, executor?: Executor): Promise<PublicUser> {
  const data = newUserSchema.parse(input);
  const db = executor ?? (await getDb());
  const [row] = await db
    .insert(consoleUsers)
    .values({ email: data.email, name: data.name, role: data.role, passwordHash: await hashPassword(data.password) })
    .onConflictDoNothing()
    .returning(publicColumns);
  if (!row) throw new UserExistsError(`A user with the email ${data.email} already exists.`);
  return row;
}

/** The full row, hash included: only for the sign-in check. */
export async function findUserForSignIn(email: string): Promise<ConsoleUser | undefined> {
  const db = await getDb();
  const [row] = await db.select().from(consoleUsers).where(byEmail(email)).limit(1);
  return row;
}

export type SessionSubject = Pick<ConsoleUser, "id" | "email" | "name" | "role" | "disabled" | "sessionVersion">;

/** What a session is issued for (by id, or by a single sign-on identity) and checked against on every request. */
export async function findSessionSubject(where: string | SQL): Promise<SessionSubject | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({ ...userIdentityColumns, sessionVersion: consoleUsers.sessionVersion })
    .from(consoleUsers)
    .where(typeof where === "string" ? eq(consoleUsers.id, where) : where)
    .limit(1);
  return row;
}

/** Who a user is, by email (any case): for a CLI that names a user (`npm run tokens -- create --user`). */
export function findUserByEmail(email: string): Promise<SessionSubject | undefined> {
  return findSessionSubject(byEmail(email));
}

export async function recordSignIn(id: string, at: Date): Promise<void> {
  const db = await getDb();
  await db.update(consoleUsers).set({ lastSignInAt: at }).where(eq(consoleUsers.id, id));
}

export async function listUsers(): Promise<PublicUser[]> {
  const db = await getDb();
  return db.select(publicColumns).from(consoleUsers).orderBy(asc(consoleUsers.email));
}

/** Whom a change made here is audited as when its caller names nobody: an operator at the console's own machine. */
const OPERATOR: AuditActor = { id: null, email: null };

/**
 * Changes a user in a way that must end their sessions: the same UPDATE bumps session_version, so
 * every session issued before it ends at its next request, on every instance. With `endsTokens`, the
 * user's API tokens end too (revokeUserTokens). False when no user has that email.
 */
async function changeUserEndingSessions(
  email: string,
  changes: Partial<Pick<ConsoleUser, "disabled" | "passwordHash" | "role">>,
  executor: Executor | undefined,
  endsTokens?: { ended: UserAccessEnded["reason"]; actor: AuditActor },
): Promise<boolean> {
  const db = executor ?? (await getDb());
  const [row] = await db
    .update(consoleUsers)
    .set({ ...changes, sessionVersion: nextSessionVersion, updatedAt: new Date() })
    .where(byEmail(email))
    .returning({ id: consoleUsers.id, role: consoleUsers.role });
  if (row && endsTokens) {
    const ended: UserAccessEnded =
      endsTokens.ended === "role_lowered" ? { reason: "role_lowered", role: row.role } : { reason: endsTokens.ended };
    await revokeUserTokens(db, row.id, ended, endsTokens.actor);
  }
  return row !== undefined;
}

/** Disabling also revokes the user's API tokens; enabling again revives none. */
export function setUserDisabled(
  email: string,
  disabled: boolean,
  executor?: Executor,
  actor = OPERATOR,
): Promise<boolean> {
  return changeUserEndingSessions(
    email,
    { disabled },
    executor,
    disabled ? { ended: "user_disabled", actor } : undefined,
  );
}

export async function setUserPassword(email: string, password: string, executor?: Executor): Promise<boolean> {
  const passwordHash = await hashPassword(newPasswordSchema.parse(password));
  return changeUserEndingSessions(email, { passwordHash }, executor);
}

/** A lower role also revokes the user's API tokens above it. */
export function setUserRole(email: string, role: Role, executor?: Executor, actor = OPERATOR): Promise<boolean> {
  return changeUserEndingSessions(email, { role }, executor, { ended: "role_lowered", actor });
}

/** Ends every session of the user, and their API tokens with them. */
export function revokeSessions(email: string, executor?: Executor, actor = OPERATOR): Promise<boolean> {
  return changeUserEndingSessions(email, {}, executor, { ended: "sessions_revoked", actor });
}

export async function countUsers(): Promise<number> {
  const db = await getDb();
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(consoleUsers);
  return row?.n ?? 0;
}
