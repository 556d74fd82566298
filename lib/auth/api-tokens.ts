import "server-only";

import { createHash, randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";

import { and, eq, inArray, isNull } from "drizzle-orm";

import { recordAudit, type AuditActor } from "@/lib/audit/audit";
import { getDb, type Executor } from "@/lib/db";
import { consoleUsers } from "@/lib/db/schema";
import { apiTokenAddresses, apiTokens } from "@/lib/db/tokens-schema";
import { env } from "@/lib/env";
import { errorMessage } from "@/lib/error-message";
import { logger } from "@/lib/logger";
import { countTokenCheck, type TokenCheckOutcome } from "@/lib/metrics/metrics";

import { API_TOKEN_PREFIX, type ApiTokenScope, type ApiTokenStatus } from "./api-token-format";
import { recordGuess, refusedUntil } from "./api-token-throttle";
import { clientAddress } from "./client-ip";
import { hasRole, roles, type Role } from "./roles";

/*
 * Verifying API tokens (bearer credentials for scripts and monitoring; lib/tokens makes and revokes
 * them). Nothing about a token's validity is cached: every request reads the token and its user in one
 * indexed join, so a revocation, an expiry, a disabled user or a lowered role holds at the next request.
 */

/** A new secret: the prefix and 32 random bytes (256 bits), with the hash that is all the database keeps. */
export function newApiTokenSecret(): { secret: string; hash: string } {
  const secret = `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  return { secret, hash: hashApiTokenSecret(secret) };
}

/**
 * SHA-256, not argon2: a 256-bit random secret cannot be guessed from its hash, and a check must stay cheap under
 * a flood.
 */
export function hashApiTokenSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** Whom a valid token acts as, in the shape of a session's user; `role` is the token's own. */
export type TokenCaller = { id: string; email: string; name: string; role: Role };

export type TokenRefusal = {
  ok: false;
  status: 401 | 403 | 429 | 503;
  error: string;
  errorDescription: string;
  retryAfterSeconds?: number;
};
export type TokenCheck = { ok: true; caller: TokenCaller } | TokenRefusal;

/**
 * How long a refused bearer value waits for its answer: a guess, and a revoked, expired or inactive
 * token alike (a timer, no work). A client that sends them one after another on each connection then
 * makes at most one a second per connection, a leaked dead token included. A working token never waits.
 */
export const REFUSED_ANSWER_DELAY_MS = 1_000;

async function answerLate(refusal: TokenRefusal): Promise<TokenRefusal> {
  await sleep(REFUSED_ANSWER_DELAY_MS);
  return refusal;
}

/** A token used again from its last address within this long is not written again (a polling script: once a minute). */
export const LAST_USE_INTERVAL_MS = 60_000;

const refuse = (status: 401 | 403 | 503, errorDescription: string): TokenRefusal => ({
  ok: false,
  status,
  error: status === 401 ? "unauthorized" : status === 403 ? "forbidden" : "unavailable",
  errorDescription,
});

function tooManyGuesses(retryAt: Date, now: Date): TokenRefusal {
  return {
    ok: false,
    status: 429,
    error: "too_many_requests",
    errorDescription: "Too many bad tokens from this address. Try again later.",
    retryAfterSeconds: Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 1000)),
  };
}

/** The caller's address key, as sign-in reads it (lib/auth/client-ip.ts). */
export function requestAddress(request: Request): string {
  return clientAddress(
    { "x-forwarded-for": request.headers.get("x-forwarded-for") ?? undefined },
    env().CONSOLE_TRUSTED_PROXY_HOPS,
  );
}

function findToken(hash: string) {
  return getDb().then((db) =>
    db
      .select({
        id: apiTokens.id,
        name: apiTokens.name,
        role: apiTokens.role,
        scopes: apiTokens.scopes,
        expiresAt: apiTokens.expiresAt,
        revokedAt: apiTokens.revokedAt,
        lastUsedAt: apiTokens.lastUsedAt,
        lastUsedAddress: apiTokens.lastUsedAddress,
        userId: apiTokens.userId,
        user: {
          email: consoleUsers.email,
          name: consoleUsers.name,
          role: consoleUsers.role,
          disabled: consoleUsers.disabled,
        },
      })
      .from(apiTokens)
      .leftJoin(consoleUsers, eq(consoleUsers.id, apiTokens.userId))
      .where(eq(apiTokens.secretHash, hash))
      .limit(1),
  );
}

type FoundToken = Awaited<ReturnType<typeof findToken>>[number];

/**
 * Whether a token works now: the one rule the check below applies at each request and the list shows.
 * A token made for a user (userId) works while that user exists, is enabled and holds the token's role.
 */
export function tokenStatus(
  token: { revokedAt: Date | null; expiresAt: Date | null; role: Role; userId: string | null },
  user: { role: Role; disabled: boolean } | null,
  now: Date,
): ApiTokenStatus {
  if (token.revokedAt) return "revoked";
  if (token.expiresAt && token.expiresAt <= now) return "expired";
  if (token.userId && (!user || user.disabled || !hasRole(user.role, token.role))) return "inactive";
  return "active";
}

/**
 * Why a token ended with its user's access (an admin's own revocation is `revoked`); a lowered role names the new
 * one.
 */
export type UserAccessEnded = { reason: "user_disabled" | "sessions_revoked" } | { reason: "role_lowered"; role: Role };

/**
 * Ends a user's unrevoked tokens with their access, in the caller's transaction, each audited: all of
 * them, or for a lowered role those above the new one. Enabling or promoting again revives none.
 * Answers the names of the tokens revoked.
 */
export async function revokeUserTokens(
  executor: Executor,
  userId: string,
  ended: UserAccessEnded,
  actor: AuditActor,
  now = new Date(),
): Promise<string[]> {
  const aboveRole = ended.reason === "role_lowered" ? roles.filter((role) => !hasRole(ended.role, role)) : [...roles];
  if (aboveRole.length === 0) return [];
  const revoked = await executor
    .update(apiTokens)
    .set({ revokedAt: now, revokedBy: actor.id, revokedReason: ended.reason })
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt), inArray(apiTokens.role, aboveRole)))
    .returning({ name: apiTokens.name });
  for (const token of revoked) {
    await recordAudit(
      { actor, action: "api_token.revoked", outcome: "success", target: token.name, details: { reason: ended.reason } },
      executor,
    );
  }
  return revoked.map((token) => token.name);
}

/** Each user's working tokens (name and role), by user id: what the team page shows beside each member. */
export async function activeTokensByUser(now = new Date()): Promise<Map<string, Array<{ name: string; role: Role }>>> {
  const db = await getDb();
  const rows = await db
    .select({
      token: {
        name: apiTokens.name,
        role: apiTokens.role,
        userId: apiTokens.userId,
        revokedAt: apiTokens.revokedAt,
        expiresAt: apiTokens.expiresAt,
      },
      user: { role: consoleUsers.role, disabled: consoleUsers.disabled },
    })
    .from(apiTokens)
    .innerJoin(consoleUsers, eq(consoleUsers.id, apiTokens.userId))
    .where(isNull(apiTokens.revokedAt))
    .orderBy(apiTokens.name);
  const byUser = new Map<string, Array<{ name: string; role: Role }>>();
  for (const { token, user } of rows) {
    if (tokenStatus(token, user, now) !== "active") continue;
    byUser.set(token.userId!, [...(byUser.get(token.userId!) ?? []), { name: token.name, role: token.role }]);
  }
  return byUser;
}

/** What a token that no longer works is told (never which user or role). */
const NOT_WORKING: Record<Exclude<ApiTokenStatus, "active">, string> = {
  revoked: "This API token was revoked.",
  expired: "This API token has expired.",
  inactive: "This API token is no longer valid.",
};

/**
 * Notes a use: at most once a minute from the same address. A first use from an address is added to
 * api_token_addresses and audited in the same transaction; two instances seeing it at once audit it once.
 */
async function noteUse(token: FoundToken, actor: AuditActor, address: string, now: Date): Promise<void> {
  const recent = token.lastUsedAt && now.getTime() - token.lastUsedAt.getTime() < LAST_USE_INTERVAL_MS;
  if (token.lastUsedAddress === address && recent) return;
  const db = await getDb();
  await db.transaction(async (tx) => {
    if (token.lastUsedAddress !== address) {
      const added = await tx
        .insert(apiTokenAddresses)
        .values({ tokenId: token.id, address, firstSeenAt: now })
        .onConflictDoNothing()
        .returning({ address: apiTokenAddresses.address });
      if (added.length > 0) {
        await recordAudit(
          {
            actor,
            action: "api_token.used_from_new_address",
            outcome: "success",
            target: token.name,
            details: { address },
          },
          tx,
        );
      }
    }
    await tx.update(apiTokens).set({ lastUsedAt: now, lastUsedAddress: address }).where(eq(apiTokens.id, token.id));
  });
}

/**
 * Checks a request's bearer token (`secret`, null without a bearer Authorization header) for a scope, looking the
 * secret up first so that a working token is never refused by the guess limit. An unknown secret is a guess
 * (api-token-throttle.ts); a dead token waits as a guess does but counts for nothing, so it locks nobody out.
 */
export async function checkApiToken(
  request: Request,
  secret: string | null,
  scope: ApiTokenScope,
  now = new Date(),
): Promise<TokenCheck> {
  if (!secret) return counted("unknown", refuse(401, "Send an API token as: Authorization: Bearer <token>."));
  try {
    const [token] = secret.startsWith(API_TOKEN_PREFIX) ? await findToken(hashApiTokenSecret(secret)) : [];
    if (!token) return answerLate(await guessRefusal(requestAddress(request), now));
    const { user } = token;
    const status = tokenStatus(token, user, now);
    if (status !== "active") return answerLate(counted(status, refuse(401, NOT_WORKING[status])));
    if (!token.scopes.includes(scope))
      return counted("missing_scope", refuse(403, `This API token lacks the ${scope} scope.`));
    const actor: AuditActor =
      token.userId && user ? { id: token.userId, email: user.email } : { id: null, email: null };
    await noteUse(token, actor, requestAddress(request), now);
    return counted("accepted", {
      ok: true,
      caller: {
        id: token.userId ?? token.id,
        email: user?.email ?? `api token ${token.name}`,
        name: token.name,
        role: token.role,
      },
    });
  } catch (error) {
    logger.warn("api token check failed", { error: errorMessage(error) });
    return refuse(
      503,
      "The console's database did not answer, so the token could not be checked. Try again in a moment.",
    );
  }
}

/** A guess's answer: 401, or 429 past the address's limit (from memory once refused, writing nothing). */
async function guessRefusal(address: string, now: Date): Promise<TokenRefusal> {
  const retryAt = refusedUntil(address, now) ?? (await recordGuess(address, now));
  return retryAt
    ? counted("throttled", tooManyGuesses(retryAt, now))
    : counted("unknown", refuse(401, "This API token is not valid."));
}

/** The check's outcome, counted for GET /api/metrics (tenant_console_api_token_checks_total). */
function counted<T extends TokenCheck>(outcome: TokenCheckOutcome, check: T): T {
  countTokenCheck(outcome);
  return check;
}
