import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { eq } from "drizzle-orm";
import { recordAudit, type AuditActor } from "@/lib/audit/audit";
import { getDb } from "@/lib/db";
import { consoleUsers } from "@/lib/db/schema";
import { apiTokenAddresses, apiTokens } from "@/lib/db/tokens-schema";
import { env } from "@/lib/env";
import { errorMessage } from "@/lib/error-message";
import { logger } from "@/lib/logger";
import { countTokenCheck, type TokenCheckOutcome } from "@/lib/metrics/metrics";
import { API_TOKEN_PREFIX, type ApiTokenScope, type ApiTokenStatus } from "./api-token-format";
import { recordFailedGuess, refusedUntil } from "./api-token-throttle";
import { clientAddress } from "./client-ip";
import { hasRole, type Role } from "./roles";

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

/** SHA-256, not argon2: a 256-bit random secret cannot be guessed from its hash, and a check must stay cheap under a flood. */
export function hashApiTokenSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** Whom a valid token acts as, in the shape of a session's user; `role` is the token's own. */
export type TokenCaller = { id: string; email: string; name: string; role: Role };

export type TokenRefusal = { ok: false; status: 401 | 403 | 429 | 503; error: string; errorDescription: string; retryAfterSeconds?: number };
export type TokenCheck = { ok: true; caller: TokenCaller } | TokenRefusal;

/**
 * How long a guess (a secret that matches no token) waits for its answer, 401 or 429: a timer, no work.
 * A client that sends its guesses one after another on each connection, as a brute-force tool does, then
 * makes at most one a second per connection, so a flood of them answers at the rate of its connections
 * and leaves the webhook receiver, which shares the process and the database, its CPU. A real token is
 * never made to wait; a mistyped one waits a second, as a wrong password does at a terminal.
 */
export const GUESS_ANSWER_DELAY_MS = 1_000;

async function answerGuess(refusal: TokenRefusal): Promise<TokenRefusal> {
  await sleep(GUESS_ANSWER_DELAY_MS);
  return refusal;
}

/** A token used again from its last address within this long is not written again (a polling script writes once a minute). */
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
  return clientAddress({ "x-forwarded-for": request.headers.get("x-forwarded-for") ?? undefined }, env().CONSOLE_TRUSTED_PROXY_HOPS);
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
        user: { email: consoleUsers.email, name: consoleUsers.name, role: consoleUsers.role, disabled: consoleUsers.disabled },
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
      const added = await tx.insert(apiTokenAddresses).values({ tokenId: token.id, address, firstSeenAt: now }).onConflictDoNothing().returning({ address: apiTokenAddresses.address });
      if (added.length > 0) {
        await recordAudit({ actor, action: "api_token.used_from_new_address", outcome: "success", target: token.name, details: { address } }, tx);
      }
    }
    await tx.update(apiTokens).set({ lastUsedAt: now, lastUsedAddress: address }).where(eq(apiTokens.id, token.id));
  });
}

/**
 * Checks a request's bearer token (`secret`, null when its Authorization header is not a bearer one)
 * for a scope. A secret that matches no token is a guess and counts against the address (see
 * api-token-throttle.ts); a known token that no longer works is not, so a script left running with a
 * revoked token cannot lock its neighbours out.
 */
export async function checkApiToken(request: Request, secret: string | null, scope: ApiTokenScope, now = new Date()): Promise<TokenCheck> {
  const address = requestAddress(request);
  const refusedTill = refusedUntil(address, now);
  if (refusedTill) return answerGuess(counted("throttled", tooManyGuesses(refusedTill, now)));
  if (!secret) return counted("unknown", refuse(401, "Send an API token as: Authorization: Bearer <token>."));
  try {
    const [token] = secret.startsWith(API_TOKEN_PREFIX) ? await findToken(hashApiTokenSecret(secret)) : [];
    if (!token) {
      const retryAt = await recordFailedGuess(address, now);
      return answerGuess(retryAt ? counted("throttled", tooManyGuesses(retryAt, now)) : counted("unknown", refuse(401, "This API token is not valid.")));
    }
    const { user } = token;
    const status = tokenStatus(token, user, now);
    if (status !== "active") return counted(status, refuse(401, NOT_WORKING[status]));
    if (!token.scopes.includes(scope)) return counted("missing_scope", refuse(403, `This API token lacks the ${scope} scope.`));
    const actor: AuditActor = token.userId && user ? { id: token.userId, email: user.email } : { id: null, email: null };
    await noteUse(token, actor, address, now);
    return counted("accepted", {
      ok: true,
      caller: { id: token.userId ?? token.id, email: user?.email ?? `api token ${token.name}`, name: token.name, role: token.role },
    });
  } catch (error) {
    logger.warn("api token check failed", { error: errorMessage(error) });
    return refuse(503, "The console's database did not answer, so the token could not be checked. Try again in a moment.");
  }
}

/** The check's outcome, counted for GET /api/metrics (tenant_console_api_token_checks_total). */
function counted<T extends TokenCheck>(outcome: TokenCheckOutcome, check: T): T {
  countTokenCheck(outcome);
  return check;
}
