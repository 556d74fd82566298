import "server-only";

import { getToken } from "next-auth/jwt";
import { headers } from "next/headers";
import { NextRequest } from "next/server";
import { z } from "zod";

import type { ConsoleUser } from "@/lib/db/schema";
import { env } from "@/lib/env";

/**
 * When a first single sign-on may take over a console user with the same email and no identity yet: by itself only
 * one with no password who is not an admin; any other confirms by being signed in with their password (`/link-sso`),
 * else `link_requires_password`. Why: docs/sign-in-and-teams.md, "Single sign-on".
 */

/** The console session that came with a request: whose it is, and the session_version it was issued under. */
export type PresentedSession = { userId: string; sessionVersion: number };

/** Reads the Cookie header of the request being handled. */
export type CookieHeaderReader = () => Promise<string | null>;

/**
 * The provider's redirect back to the callback is a top-level GET, so the browser sends the console's
 * session cookie (SameSite=Lax) with it, next to next-auth's state and PKCE cookies.
 */
export const requestCookieHeader: CookieHeaderReader = async () => (await headers()).get("cookie");

const sessionTokenSchema = z.object({ uid: z.uuid(), sessionVersion: z.number().int() });

/** The console session in a Cookie header, if it carries one that decrypts and has not expired. */
export async function presentedSession(cookieHeader: string | null): Promise<PresentedSession | undefined> {
  if (!cookieHeader) return undefined;
  const { NEXTAUTH_URL, NEXTAUTH_SECRET } = env();
  // Only the cookies are passed on: getToken would also accept a bearer token from an Authorization header.
  const request = new NextRequest(NEXTAUTH_URL, { headers: { cookie: cookieHeader } });
  // The cookie's name follows NEXTAUTH_URL's scheme, as next-auth's own does (authOptions does not set it).
  const token = await getToken({
    req: request,
    secret: NEXTAUTH_SECRET,
    secureCookie: NEXTAUTH_URL.startsWith("https://"),
  });
  const parsed = sessionTokenSchema.safeParse(token);
  return parsed.success ? { userId: parsed.data.uid, sessionVersion: parsed.data.sessionVersion } : undefined;
}

/** Links without confirmation: a user with no password who is not an admin. */
export function linksWithoutConfirmation(user: Pick<ConsoleUser, "passwordHash" | "role">): boolean {
  return user.passwordHash === null && user.role !== "admin";
}

/**
 * Whether a single sign-on may link to `user` (enabled, not linked to an identity yet). A presented
 * session confirms only while it is current: its user's, issued under the row's session_version, so a
 * session that a password change, a role change or a revocation ended confirms nothing.
 */
export function mayLinkTo(
  user: Pick<ConsoleUser, "id" | "passwordHash" | "role" | "sessionVersion">,
  session: PresentedSession | undefined,
): boolean {
  if (linksWithoutConfirmation(user)) return true;
  return session !== undefined && session.userId === user.id && session.sessionVersion === user.sessionVersion;
}
