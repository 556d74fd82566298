import "server-only";
import { and, count, desc, eq, gt, gte, inArray, lt, lte, notExists, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { getDb, type Executor } from "@/lib/db";
import { loginAttempts } from "@/lib/db/schema";

/*
 * The sign-in throttle, all in login_attempts so that it holds across console instances. Nothing here
 * locks an account: refusals are per address, so a guesser elsewhere cannot keep a user out (README,
 * "Sign-in throttling", gives the reasoning).
 */

export const WINDOW_MS = 15 * 60 * 1000;
/** Failures for one email from one address, after which that address is refused for that email. */
export const PAIR_MAX_FAILURES = 5;
/** Failures from one address across all emails, after which that address is refused (password spraying). */
export const ADDRESS_MAX_FAILURES = 20;
/** Failures for one email across all addresses, after which each attempt for it is slowed, never refused. */
export const EMAIL_BACKOFF_AFTER = 10;
export const BACKOFF_BASE_MS = 250;
export const BACKOFF_MAX_MS = 4_000;

/** Emails are compared lower-cased; over-long input is cut so a 10 KB "email" cannot bloat the table. */
export function attemptKey(email: string): string {
  return email.trim().toLowerCase().slice(0, 320);
}

/** The wait before the password check, given the email's failures in the window: 250 ms doubling, capped at 4 s. */
export function backoffDelayMs(emailFailures: number): number {
  if (emailFailures < EMAIL_BACKOFF_AFTER) return 0;
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (emailFailures - EMAIL_BACKOFF_AFTER));
}

export type ThrottleState = { refused: true; retryAt: Date } | { refused: false; delayMs: number };

type Queryable = Pick<Executor, "select">;

const failedWithin = (now: Date) =>
  and(
    eq(loginAttempts.succeeded, false),
    gt(loginAttempts.attemptedAt, new Date(now.getTime() - WINDOW_MS)),
    lte(loginAttempts.attemptedAt, now),
  );

/** A failure that a later good password from the same address, for the same email, has since wiped. */
function notSinceSucceeded(db: Queryable, now: Date): SQL {
  const success = alias(loginAttempts, "success");
  return notExists(
    db
      .select({ one: sql`1` })
      .from(success)
      .where(
        and(
          eq(success.email, loginAttempts.email),
          eq(success.ip, loginAttempts.ip),
          eq(success.succeeded, true),
          gte(success.attemptedAt, loginAttempts.attemptedAt),
          lte(success.attemptedAt, now),
        ),
      ),
  );
}

/**
 * Refused when this address has 5 failures for this email since its last success there, or 20 for
 * any emails, within 15 minutes; the refusal lifts once the oldest of those failures leaves the
 * window. Otherwise the attempt may go ahead after `delayMs`, which grows with the email's failures
 * from every address.
 */
export async function throttleState(email: string, ip: string, now = new Date(), queryable?: Queryable): Promise<ThrottleState> {
  const db = queryable ?? (await getDb());
  const key = attemptKey(email);
  const recentFailures = (match: SQL | undefined, limit: number) =>
    db
      .select({ at: loginAttempts.attemptedAt })
      .from(loginAttempts)
      .where(and(match, failedWithin(now)))
      .orderBy(desc(loginAttempts.attemptedAt))
      .limit(limit);
  const [pair, address, emailFailures] = await Promise.all([
    recentFailures(and(eq(loginAttempts.email, key), eq(loginAttempts.ip, ip), notSinceSucceeded(db, now)), PAIR_MAX_FAILURES),
    recentFailures(eq(loginAttempts.ip, ip), ADDRESS_MAX_FAILURES),
    db.select({ n: count() }).from(loginAttempts).where(and(eq(loginAttempts.email, key), failedWithin(now))),
  ]);
  const liftsAt = (rows: { at: Date }[], max: number) => (rows.length >= max ? [rows[max - 1]!.at.getTime() + WINDOW_MS] : []);
  const retryTimes = [...liftsAt(pair, PAIR_MAX_FAILURES), ...liftsAt(address, ADDRESS_MAX_FAILURES)];
  if (retryTimes.length > 0) return { refused: true, retryAt: new Date(Math.max(...retryTimes)) };
  return { refused: false, delayMs: backoffDelayMs(emailFailures[0]?.n ?? 0) };
}

/** Advisory locks in their own key space (two int4 keys), apart from the migration and retention locks. */
const THROTTLE_LOCK_CLASS = 724_117_100;

export type ClaimedAttempt =
  | { refused: true; retryAt: Date }
  | { refused: false; delayMs: number; succeeded: () => Promise<void> };

/**
 * Starts a sign-in attempt before the password is checked: under a lock per email and per address,
 * checks the throttle and, unless refused, records the attempt as failed. Parallel guesses therefore
 * queue for the check instead of all passing it before any failure is written. The lock ends with the
 * claim: the caller waits `delayMs` and checks the password outside it. `succeeded()` marks the
 * attempt good once the password holds.
 */
export async function claimAttempt(email: string, ip: string, now = new Date()): Promise<ClaimedAttempt> {
  const db = await getDb();
  const claimed = await db.transaction(async (tx) => {
    for (const key of [`email:${attemptKey(email)}`, `ip:${ip}`].sort()) {
      await tx.execute(sql`select pg_advisory_xact_lock(${THROTTLE_LOCK_CLASS}, hashtext(${key}))`);
    }
    const state = await throttleState(email, ip, now, tx);
    if (state.refused) return state;
    const [row] = await tx
      .insert(loginAttempts)
      .values({ email: attemptKey(email), ip, succeeded: false, attemptedAt: now })
      .returning({ id: loginAttempts.id });
    return { ...state, id: row!.id };
  });
  if (claimed.refused) return claimed;
  return {
    refused: false,
    delayMs: claimed.delayMs,
    succeeded: async () => {
      await db.update(loginAttempts).set({ succeeded: true }).where(eq(loginAttempts.id, claimed.id));
    },
  };
}

/**
 * Of these emails (answered lower-cased), those refused from at least one address or slowed right
 * now: what an administrator would call locked out. An address refused for spraying many emails is
 * that address's doing, not any one email's, so it does not mark them.
 */
export async function lockedOutEmails(emails: string[], now = new Date()): Promise<Set<string>> {
  const keys = [...new Set(emails.map(attemptKey))];
  if (keys.length === 0) return new Set();
  const db = await getDb();
  const inKeys = and(inArray(loginAttempts.email, keys), failedWithin(now));
  const [refusedPairs, slowed] = await Promise.all([
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
  return new Set([...refusedPairs, ...slowed].map((row) => row.email));
}

/**
 * Clears an email's failed attempts, so every address may try it again at once and without delay.
 * Returns how many were cleared; the caller records the audit entry in the same transaction.
 */
export async function unlockSignIn(email: string, executor: Executor): Promise<number> {
  const rows = await executor
    .delete(loginAttempts)
    .where(and(eq(loginAttempts.email, attemptKey(email)), eq(loginAttempts.succeeded, false)))
    .returning({ id: loginAttempts.id });
  return rows.length;
}

/** Attempts older than a day serve no throttle; the retention job removes them. */
export async function purgeOldAttempts(now = new Date()): Promise<number> {
  const db = await getDb();
  const rows = await db
    .delete(loginAttempts)
    .where(lt(loginAttempts.attemptedAt, new Date(now.getTime() - 24 * 60 * 60 * 1000)))
    .returning({ id: loginAttempts.id });
  return rows.length;
}
