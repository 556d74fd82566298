import "server-only";

import { eq, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";

import { isLastEnabledAdmin, lockEnabledAdmins } from "@/lib/auth/last-admin";
import { userIdentityColumns } from "@/lib/auth/users";
import type { ActionFailure, ActionResult } from "@/lib/call-action";
import { getDb, type Transaction } from "@/lib/db";
import { consoleUsers } from "@/lib/db/schema";

import type { TeamActor } from "./team";

/* The transactions every team change runs in: the member's row locked, and for a role or disabled the last-admin
   guard too. */

const gone: ActionFailure = { ok: false, error: "This user no longer exists. Reload the page." };
const notAnAdmin: ActionFailure = { ok: false, error: "Only admin users can do this." };
const lastAdmin = (name: string): ActionFailure => ({
  ok: false,
  error: `${name} is the last enabled admin. Make someone else an admin first, so that the console keeps one.`,
});

/** Who a member is and how they sign in: whether there is a password hash, never the hash itself. */
export const memberColumns = {
  ...userIdentityColumns,
  hasPassword: sql<boolean>`${consoleUsers.passwordHash} is not null`,
  oidcIssuer: consoleUsers.oidcIssuer,
};

export type Target = {
  id: string;
  email: string;
  name: string;
  role: "admin" | "support";
  disabled: boolean;
  hasPassword: boolean;
  oidcIssuer: string | null;
};

async function lockTarget(tx: Transaction, userId: string): Promise<Target | undefined> {
  // As lockEnabledAdmins: strong enough to queue changes, and a foreign key check on the row does not wait.
  const [row] = await tx
    .select(memberColumns)
    .from(consoleUsers)
    .where(eq(consoleUsers.id, userId))
    .for("no key update");
  return row;
}

/**
 * Runs a change of a role or of disabled under the last-admin guard: the actor must still be an enabled
 * admin, and `reducesAdmins(target)` says whether the change would take an enabled admin away, which is
 * refused when the target is the only one.
 */
export async function guardedChange(
  actor: TeamActor,
  userId: string,
  change: (tx: Transaction, target: Target) => Promise<ActionResult> | ActionResult,
  reducesAdmins: (target: Target) => boolean,
): Promise<ActionResult> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const admins = await lockEnabledAdmins(tx);
    if (!admins.includes(actor.id)) return notAnAdmin;
    const target = await lockTarget(tx, userId);
    if (!target) return gone;
    if (reducesAdmins(target) && isLastEnabledAdmin(admins, target.id)) return lastAdmin(target.name);
    return change(tx, target);
  });
}

export async function updateTarget(tx: Transaction, target: Target, set: PgUpdateSetSource<typeof consoleUsers>) {
  await tx
    .update(consoleUsers)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(consoleUsers.id, target.id));
}

/** Runs `change` on an existing user, with its audit record, in one transaction. */
export async function changeMember<Fields extends object = object>(
  userId: string,
  change: (tx: Transaction, target: Target) => Promise<ActionResult<Fields>>,
): Promise<ActionResult<Fields>> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const target = await lockTarget(tx, userId);
    return target ? change(tx, target) : gone;
  });
}
