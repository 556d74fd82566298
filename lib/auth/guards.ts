import "server-only";

import { createHash, timingSafeEqual } from "node:crypto";

import { getServerSession } from "next-auth";
import { forbidden, redirect } from "next/navigation";
import { NextResponse } from "next/server";
import { cache } from "react";

import type { ActionFailure } from "@/lib/call-action";
import { env } from "@/lib/env";

import { checkApiToken, type TokenRefusal } from "./api-tokens";
import { authOptions } from "./options";
import { hasRole, type Role } from "./roles";

export type SessionUser = { id: string; email: string; name: string; role: Role };

export class SessionCheckUnavailableError extends Error {
  override name = "SessionCheckUnavailableError";
  constructor() {
    super("The console's database did not answer, so your session could not be checked. Try again in a moment.");
  }
}

/**
 * The signed-in user, or null. The session itself is checked against the database as it is read
 * (see refreshSessionToken in options.ts): a disabled user, a changed role or revoked sessions take
 * effect at the next request. Cached per request.
 */
export const getSessionUser = cache(async (): Promise<SessionUser | null> => {
  const session = await getServerSession(authOptions());
  if (session?.unchecked) throw new SessionCheckUnavailableError();
  return session?.user?.id ? session.user : null;
});

/** For pages and server actions: redirects a signed-out visitor to the sign-in page. */
export async function requireUser(): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) redirect("/sign-in");
  return user;
}

/** For pages and server actions: answers 403 when the user lacks the role. */
export async function requireRole(role: Role): Promise<SessionUser> {
  const user = await requireUser();
  if (!hasRole(user.role, role)) forbidden();
  return user;
}

/** APIs and actions answer an unchecked session in words; anything else stays thrown. */
function unlessUnchecked(error: unknown): SessionCheckUnavailableError {
  if (error instanceof SessionCheckUnavailableError) return error;
  throw error;
}

/** What the console's JSON APIs answer is per user and changes: never cached. */
const NO_STORE = { "Cache-Control": "no-store" };

export function apiError(status: number, error: string, errorDescription: string): NextResponse {
  return NextResponse.json({ error, errorDescription }, { status, headers: NO_STORE });
}

/** A JSON API's 200 answer, never cached. */
export function apiJson(body: unknown): NextResponse {
  return NextResponse.json(body, { headers: NO_STORE });
}

/** A refused token's answer; a 429 says when to try again. */
function tokenRefusal(refusal: TokenRefusal): NextResponse {
  const response = apiError(refusal.status, refusal.error, refusal.errorDescription);
  if (refusal.retryAfterSeconds) response.headers.set("Retry-After", String(refusal.retryAfterSeconds));
  return response;
}

/** An Authorization header of the Bearer scheme, whatever its value. */
const BEARER_SCHEME = /^\s*bearer(\s|$)/i;

/**
 * For route handlers: the user, or the 401/403 response to return. A Bearer Authorization header is judged by its
 * API token alone (a bad token is 401 even beside a session cookie); any other scheme, such as a proxy's Basic
 * authentication, is not a token and falls to the session.
 */
export async function authenticateApi(request: Request, role: Role = "support"): Promise<SessionUser | NextResponse> {
  if (BEARER_SCHEME.test(request.headers.get("authorization") ?? "")) {
    const check = await checkApiToken(request, bearerToken(request), "api");
    if (!check.ok) return tokenRefusal(check);
    if (!hasRole(check.caller.role, role))
      return apiError(403, "forbidden", `This API needs the ${role} role; the token has ${check.caller.role}.`);
    return check.caller;
  }
  const user = await getSessionUser().catch(unlessUnchecked);
  if (user instanceof SessionCheckUnavailableError) return apiError(503, "unavailable", user.message);
  if (!user) return apiError(401, "unauthorized", "Sign in to use this API.");
  if (!hasRole(user.role, role)) return apiError(403, "forbidden", `This API needs the ${role} role.`);
  return user;
}

/** The bearer token of a request's Authorization header, or null when it has none. */
export function bearerToken(request: Request): string | null {
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(request.headers.get("authorization") ?? "");
  return match ? match[1]! : null;
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * For GET /api/metrics: null when the request carries the operator's CONSOLE_METRICS_TOKEN or an API
 * token with the metrics scope, else the response to return. Never anonymous.
 */
export async function authenticateMetrics(request: Request): Promise<NextResponse | null> {
  const token = bearerToken(request);
  const operator = env().CONSOLE_METRICS_TOKEN;
  if (token && operator && timingSafeEqual(digest(token), digest(operator))) return null;
  if (!token)
    return apiError(
      401,
      "unauthorized",
      "Metrics need a bearer token: CONSOLE_METRICS_TOKEN, or an API token with the metrics scope.",
    );
  // Anything else is an API token or a guess (a stale CONSOLE_METRICS_TOKEN too): a 401 after a second, limited
  // apart from sign-in.
  const check = await checkApiToken(request, token, "metrics");
  return check.ok ? null : tokenRefusal(check);
}

/**
 * For server actions, which answer with a result instead of throwing: the user,
 * or a failure to return when signed out or lacking the role.
 */
export async function authorizeAction(role: Role): Promise<SessionUser | ActionFailure> {
  const user = await getSessionUser().catch(unlessUnchecked);
  if (user instanceof SessionCheckUnavailableError) return { ok: false, error: user.message };
  if (!user) return { ok: false, error: "Your session has ended. Sign in again." };
  if (!hasRole(user.role, role)) return { ok: false, error: `Only ${role} users can do this.` };
  return user;
}

export function isActionFailure(value: SessionUser | ActionFailure): value is ActionFailure {
  return "ok" in value;
}
