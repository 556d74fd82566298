import "server-only";

import { and, asc, eq } from "drizzle-orm";

import type { Transaction } from "@/lib/db";
import { consoleUsers } from "@/lib/db/schema";

import type { Role } from "./roles";

/**
 * The last-admin guard for every change that can take an enabled admin away (lib/team/team.ts, sso.ts); in lib/auth
 * because lib/auth never imports a feature. `lockEnabledAdmins` comes first in the transaction, before the user's
 * row: every caller locks in one order (admins by id, then the user), so two changes queue rather than deadlock.
 */
export async function lockEnabledAdmins(tx: Transaction): Promise<string[]> {
  const rows = await tx
    .select({ id: consoleUsers.id })
    .from(consoleUsers)
    .where(and(eq(consoleUsers.role, "admin"), eq(consoleUsers.disabled, false)))
    .orderBy(asc(consoleUsers.id))
    // Not FOR UPDATE: that also waits for (and deadlocks with) a foreign key check on an admin's row, as writing an
    // API token or an audit record that names the admin takes, and no change here alters a key.
    .for("no key update");
  return rows.map((r) => r.id);
}

/** True when `userId` is the only enabled admin in `enabledAdmins` (from lockEnabledAdmins). */
export function isLastEnabledAdmin(enabledAdmins: readonly string[], userId: string): boolean {
  return enabledAdmins.length === 1 && enabledAdmins[0] === userId;
}

/** Whether giving `user` the role `to` takes an enabled admin away. */
export function removesAnAdmin(user: { role: Role; disabled: boolean }, to: Role): boolean {
  return user.role === "admin" && !user.disabled && to !== "admin";
}
