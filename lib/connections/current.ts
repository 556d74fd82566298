import "server-only";

import { cookies } from "next/headers";

import { requireRole, type SessionUser } from "@/lib/auth/guards";
import type { Role } from "@/lib/auth/roles";
import { env } from "@/lib/env";

import { listConnectionChoices } from "./repository";
import type { ConnectionChoice } from "./types";

export const SELECTED_CONNECTION_COOKIE = "console_connection";

/**
 * The connection the shell's switcher points at: the cookie's id if it still names a connection
 * (checked against the database on every read), else the first connection by name, else null.
 */
export async function getSelectedConnection(): Promise<ConnectionChoice | null> {
  const [choices, jar] = await Promise.all([listConnectionChoices(), cookies()]);
  const wanted = jar.get(SELECTED_CONNECTION_COOKIE)?.value;
  return choices.find((c) => c.id === wanted) ?? choices[0] ?? null;
}

/**
 * The opening of every feature page that works on one tenant: the signed-in user, who must have
 * `role`, and the public view of the connection the switcher points at (no key), or null when no
 * connection exists yet (the page then says how to add one).
 */
export async function requireSelectedConnection(
  role: Role,
): Promise<{ user: SessionUser; connection: ConnectionChoice | null }> {
  const user = await requireRole(role);
  return { user, connection: await getSelectedConnection() };
}

/** Remembers the choice in an httpOnly cookie (only from a server action or route handler). */
export async function rememberSelectedConnection(id: string): Promise<void> {
  const jar = await cookies();
  jar.set(SELECTED_CONNECTION_COOKIE, id, {
    httpOnly: true,
    sameSite: "lax",
    secure: env().NEXTAUTH_URL.startsWith("https://"),
    path: "/",
    maxAge: 60 * 60 * 24 * 365,
  });
}
