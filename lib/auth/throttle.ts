import "server-only";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import { getDb } from "@/lib/db";
import { loginAttempts } from "@/lib/db/schema";

export const MAX_FAILURES = 5;
export const WINDOW_MS = 15 * 60 * 1000;

/** Emails are compared lower-cased; over-long input is cut so a 10 KB "email" cannot bloat the table. */
export function attemptKey(email: string): string {
  return email.trim().toLowerCase().slice(0, 320);
}

export type ThrottleState = { locked: false } | { locked: true; retryAt: Date };

/**
 * Locked when 5 or more failures for this email, or from this IP, fall in the last 15 minutes;
 * the lock lifts 15 minutes after the oldest of the five most recent failures.
 */
export async function throttleState(email: string, ip: string, now = new Date()): Promise<ThrottleState> {
  const db = await getDb();
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

export async function recordAttempt(email: string, ip: string, succeeded: boolean, at = new Date()): Promise<void> {
  const db = await getDb();
  await db.insert(loginAttempts).values({ email: attemptKey(email), ip, succeeded, attemptedAt: at });
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
