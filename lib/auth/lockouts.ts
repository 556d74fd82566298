import "server-only";

import { and, count, eq, gt, gte, inArray, lt, or } from "drizzle-orm";

import { getDb, type Executor } from "@/lib/db";
import { loginAttempts } from "@/lib/db/schema";

import {
  attemptKey,
  EMAIL_BACKOFF_AFTER,
  failedWithin,
  KNOWN_GOOD_MS,
  notSinceSucceeded,
  PAIR_MAX_FAILURES,
  WINDOW_MS,
} from "./throttle";

/* The sign-in throttle as administrators and upkeep see it: who is locked out, unlocking, purging old attempts. */

/**
 * Of these emails (answered lower-cased), those refused from at least one address or under back-off
 * right now: what an administrator would call locked out. An address refused for spraying many emails is
 * that address's doing, not any one email's, so it does not mark them.
 */
export async function lockedOutEmails(emails: string[], now = new Date()): Promise<Set<string>> {
  const keys = [...new Set(emails.map(attemptKey))];
  if (keys.length === 0) return new Set();
  const db = await getDb();
  const inKeys = and(inArray(loginAttempts.email, keys), failedWithin(now));
  const [refusedPairs, backedOff] = await Promise.all([
    db
      .select({ email: loginAttempts.email })
      .from(loginAttempts)
      .where(and(inKeys, notSinceSucceeded(db, now)))
      .groupBy(loginAttempts.email, loginAttempts.ip)
      .having(gte(count(), PAIR_MAX_FAILURES)),
    db
      .select({ email: loginAttempts.email })
      .from(loginAttempts)
      .where(inKeys)
      .groupBy(loginAttempts.email)
      .having(gte(count(), EMAIL_BACKOFF_AFTER)),
  ]);
  return new Set([...refusedPairs, ...backedOff].map((row) => row.email));
}

/**
 * Lets an email sign in again at once: clears its failures and every failure from the addresses it failed from or
 * signed in from lately, so a shared address refused for others' failures keeps it out no longer. Returns how many
 * were cleared; the caller audits in the same transaction.
 */
export async function unlockSignIn(email: string, executor: Executor, now = new Date()): Promise<number> {
  const key = attemptKey(email);
  const itsAddresses = executor
    .select({ ip: loginAttempts.ip })
    .from(loginAttempts)
    .where(
      and(
        eq(loginAttempts.email, key),
        or(
          and(eq(loginAttempts.succeeded, false), gt(loginAttempts.attemptedAt, new Date(now.getTime() - WINDOW_MS))),
          and(
            eq(loginAttempts.succeeded, true),
            gt(loginAttempts.attemptedAt, new Date(now.getTime() - KNOWN_GOOD_MS)),
          ),
        ),
      ),
    );
  const rows = await executor
    .delete(loginAttempts)
    .where(
      and(
        eq(loginAttempts.succeeded, false),
        or(eq(loginAttempts.email, key), inArray(loginAttempts.ip, itsAddresses)),
      ),
    )
    .returning({ id: loginAttempts.id });
  return rows.length;
}

/**
 * Failures older than a day serve no throttle, successes older than KNOWN_GOOD_MS no longer make an
 * address known; the retention job removes them.
 */
export async function purgeOldAttempts(now = new Date()): Promise<number> {
  const db = await getDb();
  const before = (ms: number) => lt(loginAttempts.attemptedAt, new Date(now.getTime() - ms));
  const rows = await db
    .delete(loginAttempts)
    .where(or(and(eq(loginAttempts.succeeded, false), before(24 * 60 * 60 * 1000)), before(KNOWN_GOOD_MS)))
    .returning({ id: loginAttempts.id });
  return rows.length;
}
