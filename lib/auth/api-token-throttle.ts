import "server-only";
import { sql } from "drizzle-orm";
import { recordRepeatedAudit } from "@/lib/audit/audit";
import { getDb, rowsOf } from "@/lib/db";
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

function remember(address: string, until: Date, now: Date): void {
  const cache = refusals();
  cache.delete(address);
  if (cache.size >= MAX_CACHED_REFUSALS) {
    for (const [key, at] of cache) if (at <= now.getTime()) cache.delete(key);
    if (cache.size >= MAX_CACHED_REFUSALS) cache.delete(cache.keys().next().value!);
  }
  cache.set(address, until.getTime());
}

/**
 * A guess that matched no token: refused (the retry time) when the address already has its
 * ADDRESS_MAX_FAILURES failures in the window, written nowhere; otherwise recorded as a failure, and
 * null. One statement, no transaction: on PGlite a transaction holds the one connection the webhook
 * receiver writes through, so a guess costs what one short write costs. The refusal is audited as a
 * refused password sign-in is, one record per window.
 */
export async function recordFailedGuess(address: string, now: Date): Promise<Date | null> {
  const db = await getDb();
  const since = new Date(now.getTime() - WINDOW_MS);
  const result = await db.execute(sql`
    with recent as (
      select ${loginAttempts.attemptedAt} as at from ${loginAttempts}
      where ${loginAttempts.ip} = ${address} and not ${loginAttempts.succeeded}
        and ${loginAttempts.attemptedAt} > ${since.toISOString()}::timestamptz and ${loginAttempts.attemptedAt} <= ${now.toISOString()}::timestamptz
      order by ${loginAttempts.attemptedAt} desc
      limit ${ADDRESS_MAX_FAILURES}
    ), recorded as (
      insert into ${loginAttempts} (email, ip, succeeded, attempted_at)
      select ${API_TOKEN_ATTEMPT_KEY}, ${address}, false, ${now.toISOString()}::timestamptz
      where (select count(*) from recent) < ${ADDRESS_MAX_FAILURES}
    )
    select (select count(*) from recent)::int as failures, (extract(epoch from (select min(at) from recent)) * 1000)::float8 as oldest_ms`);
  const [row] = rowsOf<{ failures: number; oldest_ms: number | null }>(result);
  if (!row || row.failures < ADDRESS_MAX_FAILURES || row.oldest_ms === null) return null;
  const retryAt = new Date(row.oldest_ms + WINDOW_MS);
  await db.transaction((tx) =>
    recordRepeatedAudit(
      { actor: { id: null, email: null }, action: "sign_in.throttled", outcome: "denied", target: address, details: { reason: "address" } },
      { ms: WINDOW_MS, now },
      tx,
    ),
  );
  remember(address, retryAt, now);
  return retryAt;
}
