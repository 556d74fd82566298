import "server-only";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import { getDb, type Database } from "@/lib/db";
import { loginAttempts } from "@/lib/db/schema";

export const MAX_FAILURES = 5;
export const WINDOW_MS = 15 * 60 * 1000;

/** Emails are compared lower-cased; over-long input is cut so a 10 KB "email" cannot bloat the table. */
export function attemptKey(email: string): string {
  return email.trim().toLowerCase().slice(0, 320);
}

export type ThrottleState = { locked: false } | { locked: true; retryAt: Date };

type Queryable = Pick<Database, "select">;

/**
 * Locked when 5 or more failures for this email, or from this IP, fall in the last 15 minutes;
 * the lock lifts 15 minutes after the oldest of the five most recent failures.
 */
export async function throttleState(email: string, ip: string, now = new Date(), queryable?: Queryable): Promise<ThrottleState> {
  const db = queryable ?? (await getDb());
  const since = new Date(now.getTime() - WINDOW_MS);
  const failuresFor = (match: ReturnType<typeof eq>) =>
    db
      .select({ at: loginAttempts.attemptedAt })
      .from(loginAttempts)
      .where(and(match, eq(loginAttempts.succeeded, false), gt(loginAttempts.attemptedAt, since)))
      .orderBy(sql`${loginAttempts.attemptedAt} desc`)
      .limit(MAX_FAILURES);
  const [byEmail, byIp] = await Promise.all([
    failuresFor(eq(loginAttempts.email, attemptKey(email))),
    failuresFor(eq(loginAttempts.ip, ip)),
  ]);
  const unlockTimes = [byEmail, byIp]
    .filter((rows) => rows.length >= MAX_FAILURES)
    .map((rows) => rows[MAX_FAILURES - 1]!.at.getTime() + WINDOW_MS);
  if (unlockTimes.length === 0) return { locked: false };
  return { locked: true, retryAt: new Date(Math.max(...unlockTimes)) };
}

/** Advisory locks in their own key space (two int4 keys), apart from the migration and retention locks. */
const THROTTLE_LOCK_CLASS = 724_117_100;

export type ClaimedAttempt = { locked: true; retryAt: Date } | { locked: false; succeeded: () => Promise<void> };

/**
 * Starts a sign-in attempt before the password is checked: under a lock per email and per IP, checks
 * the throttle and, unless locked, records the attempt as failed. Parallel guesses therefore queue
 * for the check instead of all passing it before any failure is written. `succeeded()` clears the
 * attempt once the password holds.
 */
export async function claimAttempt(email: string, ip: string, now = new Date()): Promise<ClaimedAttempt> {
  const db = await getDb();
  const claimed = await db.transaction(async (tx) => {
    for (const key of [`email:${attemptKey(email)}`, `ip:${ip}`].sort()) {
      await tx.execute(sql`select pg_advisory_xact_lock(${THROTTLE_LOCK_CLASS}, hashtext(${key}))`);
    }
    const state = await throttleState(email, ip, now, tx);
    if (state.locked) return state;
    const [row] = await tx
      .insert(loginAttempts)
      .values({ email: attemptKey(email), ip, succeeded: false, attemptedAt: now })
      .returning({ id: loginAttempts.id });
    return { locked: false as const, id: row!.id };
  });
  if (claimed.locked) return claimed;
  return {
    locked: false,
    succeeded: async () => {
      await db.update(loginAttempts).set({ succeeded: true }).where(eq(loginAttempts.id, claimed.id));
    },
  };
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
