import "server-only";

import { and, count, desc, eq, gt, gte, lte, max, notExists, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";

import { recordRepeatedAudit } from "@/lib/audit/audit";
import { getDb, type Executor, type Transaction } from "@/lib/db";
import { loginAttempts } from "@/lib/db/schema";

/*
 * The sign-in throttle, in login_attempts so it holds across instances. It locks no account: hard refusals are per
 * address, and the email's back-off spares whoever signed in to it before (docs/sign-in-and-teams.md).
 */

export const WINDOW_MS = 15 * 60 * 1000;
/** Failures for one email from one address, after which that address is refused for that email. */
export const PAIR_MAX_FAILURES = 5;
/** Failures from one address across all emails, after which that address is refused (password spraying). */
export const ADDRESS_MAX_FAILURES = 20;
/** Failures for one email across all addresses, after which its attempts are spaced out (the back-off). */
export const EMAIL_BACKOFF_AFTER = 10;
export const BACKOFF_BASE_MS = 250;
export const BACKOFF_MAX_MS = 4_000;
/** How long a good password from an address keeps that address known for the email (and a device cookie lasts). */
export const KNOWN_GOOD_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * Failures with one device cookie after which it no longer spares its browser the back-off (OWASP's per-device
 * lockout).
 */
export const DEVICE_MAX_FAILURES = 5;

/** Emails are compared lower-cased; over-long input is cut so a 10 KB "email" cannot bloat the table. */
export function attemptKey(email: string): string {
  return email.trim().toLowerCase().slice(0, 320);
}

/**
 * The back-off: with this many failures for an email in the window, how long after the last of them
 * its next attempt may come. 250 ms from the tenth, doubling with each, at most 4 s.
 */
export function backoffDelayMs(emailFailures: number): number {
  if (emailFailures < EMAIL_BACKOFF_AFTER) return 0;
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (emailFailures - EMAIL_BACKOFF_AFTER));
}

/** Who is attempting: the email, the caller's address key (lib/auth/client-ip.ts), and a valid device cookie's id. */
export type SignInCaller = { email: string; address: string; device?: string | null };

/** `address`: the address sprayed many emails; `pair`: it failed this email too often; `email`: its back-off. */
export type RefusalReason = "address" | "pair" | "email";

/** `knownGood`: the caller signed in to this email before (from this address, or with a device cookie). */
export type ThrottleState =
  { refused: true; retryAt: Date; reason: RefusalReason } | { refused: false; knownGood: boolean };

type Queryable = Pick<Executor, "select">;

/** A failure within the window before `now`. */
export const failedWithin = (now: Date) =>
  and(
    eq(loginAttempts.succeeded, false),
    gt(loginAttempts.attemptedAt, new Date(now.getTime() - WINDOW_MS)),
    lte(loginAttempts.attemptedAt, now),
  );

/** A failure that a later good password from the same address, for the same email, has since wiped. */
export function notSinceSucceeded(db: Queryable, now: Date): SQL {
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

/** A good password for the email (its attempt key) from this address within KNOWN_GOOD_MS: one row or none. */
function knownAddressQuery(db: Queryable, key: string, address: string, now: Date) {
  return db
    .select({ one: sql`1` })
    .from(loginAttempts)
    .where(
      and(
        eq(loginAttempts.email, key),
        eq(loginAttempts.ip, address),
        eq(loginAttempts.succeeded, true),
        gt(loginAttempts.attemptedAt, new Date(now.getTime() - KNOWN_GOOD_MS)),
        lte(loginAttempts.attemptedAt, now),
      ),
    )
    .limit(1);
}

/** Whether a good password for this email came from this address lately (one indexed read, no lock). */
export async function isKnownAddress(email: string, address: string, now = new Date()): Promise<boolean> {
  return (await knownAddressQuery(await getDb(), attemptKey(email), address, now)).length > 0;
}

/**
 * Refused with 5 failures for this (address, email) since its last success, or 20 for any emails, in 15 minutes;
 * otherwise, unless known good for the email, while the email's back-off runs. The back-off is a time an attempt may
 * not come before, never a wait, so parallel attempts cannot sit it out and check their passwords together.
 */
export async function throttleState(
  caller: SignInCaller,
  now = new Date(),
  queryable?: Queryable,
): Promise<ThrottleState> {
  const db = queryable ?? (await getDb());
  const key = attemptKey(caller.email);
  const recentFailures = (match: SQL | undefined, limit: number) =>
    db
      .select({ at: loginAttempts.attemptedAt })
      .from(loginAttempts)
      .where(and(match, failedWithin(now)))
      .orderBy(desc(loginAttempts.attemptedAt))
      .limit(limit);
  // One after another: inside claimAttempt's transaction they share one connection, on which node-postgres
  // queues a query sent while another runs, with a deprecation warning (pg 9 will refuse it). Each is a
  // read of a few index entries.
  const pair = await recentFailures(
    and(eq(loginAttempts.email, key), eq(loginAttempts.ip, caller.address), notSinceSucceeded(db, now)),
    PAIR_MAX_FAILURES,
  );
  const address = await recentFailures(eq(loginAttempts.ip, caller.address), ADDRESS_MAX_FAILURES);
  const [emailFailures] = await db
    .select({ n: count(), lastAt: max(loginAttempts.attemptedAt) })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.email, key), failedWithin(now)));
  const [knownAddress] = await knownAddressQuery(db, key, caller.address, now);
  const deviceFailures = caller.device
    ? await recentFailures(eq(loginAttempts.device, caller.device), DEVICE_MAX_FAILURES)
    : [];
  const liftsAt = (rows: { at: Date }[], limit: number) =>
    rows.length >= limit ? [rows[limit - 1]!.at.getTime() + WINDOW_MS] : [];
  const addressRefusal = liftsAt(address, ADDRESS_MAX_FAILURES);
  const pairRefusal = liftsAt(pair, PAIR_MAX_FAILURES);
  const retryTimes = [...addressRefusal, ...pairRefusal];
  if (retryTimes.length > 0) {
    return {
      refused: true,
      retryAt: new Date(Math.max(...retryTimes)),
      reason: addressRefusal.length > 0 ? "address" : "pair",
    };
  }
  const trustedDevice = Boolean(caller.device) && deviceFailures.length < DEVICE_MAX_FAILURES;
  const knownGood = Boolean(knownAddress) || trustedDevice;
  const notBefore = emailFailures?.lastAt ? emailFailures.lastAt.getTime() + backoffDelayMs(emailFailures.n) : 0;
  if (!knownGood && now.getTime() < notBefore) return { refused: true, retryAt: new Date(notBefore), reason: "email" };
  return { refused: false, knownGood };
}

/** Advisory locks in their own key space (two int4 keys), apart from the migration and retention locks. */
const THROTTLE_LOCK_CLASS = 724_117_100;

export type ClaimedAttempt =
  | { refused: true; retryAt: Date; reason: RefusalReason }
  | {
      refused: false;
      knownGood: boolean;
      /** The password held: the attempt is a success (and the address known good for the email). */
      succeeded: () => Promise<void>;
      /** The password was never checked (the console was too busy): the attempt did not happen. */
      withdraw: () => Promise<void>;
    };

/**
 * Starts an attempt before the password is checked: under a lock per email and per address, checks the throttle and
 * records the attempt as failed, so parallel attempts queue and cannot slip past a limit together. A refusal is
 * counted in the audit log (recordRefusal) in the same transaction.
 */
export async function claimAttempt(caller: SignInCaller, now = new Date()): Promise<ClaimedAttempt> {
  const db = await getDb();
  const email = attemptKey(caller.email);
  const claimed = await db.transaction(async (tx) => {
    for (const key of [`email:${email}`, `ip:${caller.address}`].sort()) {
      await tx.execute(sql`select pg_advisory_xact_lock(${THROTTLE_LOCK_CLASS}, hashtext(${key}))`);
    }
    const state = await throttleState(caller, now, tx);
    if (state.refused) {
      await recordRefusal(tx, { email, address: caller.address, reason: state.reason, now });
      return state;
    }
    const [row] = await tx
      .insert(loginAttempts)
      .values({ email, ip: caller.address, device: caller.device ?? null, succeeded: false, attemptedAt: now })
      .returning({ id: loginAttempts.id });
    return { ...state, id: row!.id };
  });
  if (claimed.refused) return claimed;
  const thisAttempt = eq(loginAttempts.id, claimed.id);
  return {
    refused: false,
    knownGood: claimed.knownGood,
    succeeded: async () => {
      await db.update(loginAttempts).set({ succeeded: true }).where(thisAttempt);
    },
    withdraw: async () => {
      await db.delete(loginAttempts).where(thisAttempt);
    },
  };
}

/**
 * One audit record per window for each thing refused, never one per attempt (a refusal costs the caller nothing),
 * keyed by what a caller cannot mint for free: a sprayed address, an (address, email) pair that failed five times, an
 * email under back-off. Each took real failed password checks.
 */
async function recordRefusal(
  tx: Transaction,
  refusal: { email: string; address: string; reason: RefusalReason; now: Date },
) {
  const { email, address, reason, now } = refusal;
  await recordRepeatedAudit(
    {
      actor: { id: null, email: reason === "address" ? null : email || null },
      action: "sign_in.throttled",
      outcome: "denied",
      target: reason === "email" ? undefined : address,
      details: { reason },
    },
    { ms: WINDOW_MS, now },
    tx,
  );
}
