import "server-only";

import { and, desc, eq, gt, lt, sql } from "drizzle-orm";

import { recordRepeatedAudit } from "@/lib/audit/audit";
import { getDb } from "@/lib/db";
import { apiTokenGuesses } from "@/lib/db/tokens-schema";
import { processSingleton } from "@/lib/process-singleton";

/*
 * The guess limit: bearer values that matched no token, counted per address in api_token_guesses (across
 * instances) and never with password failures. Only guesses are limited: a token that matches is looked
 * up first and never refused here. Once refused, an address is answered from memory until the window ends.
 */

export const GUESS_WINDOW_MS = 15 * 60 * 1000;
/** Guesses from one address in the window, after which its further guesses get 429 until the oldest leaves it. */
export const GUESS_MAX_PER_ADDRESS = 20;

/** Enough for any real flood; past it the oldest refusals are forgotten first (the database still has them). */
const MAX_CACHED_REFUSALS = 10_000;

/** Advisory locks in their own key space (two int4 keys), apart from sign-in's and the migration's. */
const GUESS_LOCK_CLASS = 724_117_101;

// The process's: Next bundles each route with its own copy of this module.
const refusals = () => processSingleton("auth.api-token-refusals", () => new Map<string, number>());

/** When this process refuses the address's guesses until, or null. */
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
 * A guess: recorded, and null, while the address has fewer than GUESS_MAX_PER_ADDRESS in the window;
 * else the time its guesses are accepted again, recorded nowhere. Under a lock per address, so parallel
 * guesses on PostgreSQL cannot pass the limit together. A refusal is audited once per window.
 */
export async function recordGuess(address: string, now: Date): Promise<Date | null> {
  const db = await getDb();
  const retryAt = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${GUESS_LOCK_CLASS}, hashtext(${address}))`);
    const recent = await tx
      .select({ at: apiTokenGuesses.guessedAt })
      .from(apiTokenGuesses)
      // No upper bound at `now`: a guess that took the lock after a later one must still count it.
      .where(
        and(
          eq(apiTokenGuesses.address, address),
          gt(apiTokenGuesses.guessedAt, new Date(now.getTime() - GUESS_WINDOW_MS)),
        ),
      )
      .orderBy(desc(apiTokenGuesses.guessedAt))
      .limit(GUESS_MAX_PER_ADDRESS);
    if (recent.length < GUESS_MAX_PER_ADDRESS) {
      await tx.insert(apiTokenGuesses).values({ address, guessedAt: now });
      return null;
    }
    await recordRepeatedAudit(
      { actor: { id: null, email: null }, action: "api_token.guesses_throttled", outcome: "denied", target: address },
      { ms: GUESS_WINDOW_MS, now },
      tx,
    );
    return new Date(recent.at(-1)!.at.getTime() + GUESS_WINDOW_MS);
  });
  if (retryAt) remember(address, retryAt, now);
  return retryAt;
}

/** Guesses older than the window count for nothing; the retention job removes them. */
export async function purgeOldGuesses(now = new Date()): Promise<number> {
  const db = await getDb();
  const rows = await db
    .delete(apiTokenGuesses)
    .where(lt(apiTokenGuesses.guessedAt, new Date(now.getTime() - GUESS_WINDOW_MS)))
    .returning({ id: apiTokenGuesses.id });
  return rows.length;
}
