import "server-only";

import { cookies } from "next/headers";

import { requireRole, type SessionUser } from "@/lib/auth/guards";
import type { Role } from "@/lib/auth/roles";
import { env } from "@/lib/env";

import { listConnectionChoices } from "./repository";
import type { ConnectionChoice } from "./types";

export const SELECTED_CONNECTION_COOKIE = "console_connection";
/** Set while the switcher says "All connections" (on the pages that can show all): the connection is kept. */
export const ALL_CONNECTIONS_COOKIE = "console_all_connections";
/** The switcher's value for "All connections", as the log's and the alerts' links say it. */
export const ALL_CONNECTIONS_SCOPE = "all";

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
 * The scope of a page that can show every connection (the log, audit, alerts), when its link names none: all of
 * them while the switcher says "All connections", else the selected connection (null: there is none).
 */
export async function getConnectionScope(): Promise<string | null> {
  const [selected, jar] = await Promise.all([getSelectedConnection(), cookies()]);
  if (jar.get(ALL_CONNECTIONS_COOKIE)?.value === "1") return ALL_CONNECTIONS_SCOPE;
  return selected?.id ?? null;
}

/** Whether the switcher says "All connections" (it shows the selected connection on other pages). */
export async function isAllConnectionsChosen(): Promise<boolean> {
  return (await cookies()).get(ALL_CONNECTIONS_COOKIE)?.value === "1";
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

/**
 * Remembers the choice in httpOnly cookies (only from a server action or route handler): a connection, or "All
 * connections", which keeps the connection chosen before for the pages that show one.
 */
export async function rememberSelectedConnection(id: string): Promise<void> {
  const jar = await cookies();
  const options = {
    httpOnly: true,
    sameSite: "lax",
    secure: env().NEXTAUTH_URL.startsWith("https://"),
    path: "/",
    maxAge: 60 * 60 * 24 * 365,
  } as const;
  if (id === ALL_CONNECTIONS_SCOPE) return void jar.set(ALL_CONNECTIONS_COOKIE, "1", options);
  jar.delete(ALL_CONNECTIONS_COOKIE);
  jar.set(SELECTED_CONNECTION_COOKIE, id, options);
}
