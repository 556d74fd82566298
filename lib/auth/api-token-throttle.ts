import "server-only";
import { and, desc, eq, gt, lte } from "drizzle-orm";
import { recordRepeatedAudit } from "@/lib/audit/audit";
import { getDb } from "@/lib/db";
import { loginAttempts } from "@/lib/db/schema";
import { ADDRESS_MAX_FAILURES, WINDOW_MS } from "./throttle";

/*
 * Bad bearer tokens count as failed sign-ins from their address (login_attempts, across instances), so
 * an address that guessed ADDRESS_MAX_FAILURES times, passwords and tokens together, is refused for
 * the rest of the window. Once refused here, an address is answered from memory until then: a flood of
 * guesses costs no database work, so it cannot slow the webhook receiver that shares the database.
 */

/** What a token failure is recorded under in login_attempts' email column: no email has no `@`. */
export const API_TOKEN_ATTEMPT_KEY = "(api token)";

/** Enough for any real flood; past it the oldest refusals are forgotten first (the database still has them). */
const MAX_CACHED_REFUSALS = 10_000;

// On globalThis: Next bundles each route with its own copy of this module, and the refusal is the process's.
const state = globalThis as unknown as { __apiTokenRefusals?: Map<string, number> };
const refusals = () => (state.__apiTokenRefusals ??= new Map());

/** When this process refuses the address until, or null. */
export function refusedUntil(address: string, now: Date): Date | null {
  const until = refusals().get(address);
  if (until === undefined) return null;
  if (until > now.getTime()) return new Date(until);
  refusals().delete(address);
  return null;
}

function remember(address: string, until: Date): void {
  const cache = refusals();
  cache.delete(address);
  if (cache.size >= MAX_CACHED_REFUSALS) {
    for (const [key, at] of cache) if (at <= Date.now()) cache.delete(key);
    if (cache.size >= MAX_CACHED_REFUSALS) cache.delete(cache.keys().next().value!);
  }
  cache.set(address, until.getTime());
}

/**
 * A guess that matched no token: refused (the retry time) when the address already has its
 * ADDRESS_MAX_FAILURES failures in the window, written nowhere; otherwise recorded as a failure, and
 * null. The refusal is audited as a refused password sign-in is, one record per window.
 */
export async function recordFailedGuess(address: string, now: Date): Promise<Date | null> {
  const db = await getDb();
  const retryAt = await db.transaction(async (tx) => {
    const recent = await tx
      .select({ at: loginAttempts.attemptedAt })
      .from(loginAttempts)
      .where(
        and(
          eq(loginAttempts.ip, address),
          eq(loginAttempts.succeeded, false),
          gt(loginAttempts.attemptedAt, new Date(now.getTime() - WINDOW_MS)),
          lte(loginAttempts.attemptedAt, now),
        ),
      )
      .orderBy(desc(loginAttempts.attemptedAt))
      .limit(ADDRESS_MAX_FAILURES);
    if (recent.length >= ADDRESS_MAX_FAILURES) {
      await recordRepeatedAudit(
        { actor: { id: null, email: null }, action: "sign_in.throttled", outcome: "denied", target: address, details: { reason: "address" } },
        { ms: WINDOW_MS, now },
        tx,
      );
      return new Date(recent[ADDRESS_MAX_FAILURES - 1]!.at.getTime() + WINDOW_MS);
    }
    await tx.insert(loginAttempts).values({ email: API_TOKEN_ATTEMPT_KEY, ip: address, succeeded: false, attemptedAt: now });
    return null;
  });
  if (retryAt) remember(address, retryAt);
  return retryAt;
}
