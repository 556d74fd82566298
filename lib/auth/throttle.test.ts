import { and, eq, or, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Database } from "@/lib/db";
import { auditLog, loginAttempts } from "@/lib/db/schema";
import { setUpTestDatabase } from "@/lib/testing/database";

import { lockedOutEmails, purgeOldAttempts, unlockSignIn } from "./lockouts";
import { attemptSignIn, INVALID_CREDENTIALS, type SignInResult } from "./sign-in";
import { BACKOFF_MAX_MS, backoffDelayMs, claimAttempt, throttleState } from "./throttle";

let db: Database;
let tearDown: () => Promise<void>;

beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
});
afterAll(() => tearDown());

const at = (t0: Date, seconds: number) => new Date(t0.getTime() + Math.round(seconds * 1000));

/** `n` claimed attempts (each counts as failed until marked good) at one-second steps. */
async function fail(email: string, ips: (i: number) => string, n: number, t0: Date) {
  for (let i = 0; i < n; i++)
    expect(await claimAttempt({ email, address: ips(i) }, at(t0, i))).toMatchObject({ refused: false });
}

/** A wrong password for an email nobody has (it fails as a wrong one does), at a given moment. */
const guess = (email: string, address: string, now: Date): Promise<SignInResult> =>
  attemptSignIn({ email, password: "wrong-password" }, address, { now });

const WRONG: SignInResult = { ok: false, message: INVALID_CREDENTIALS };
const spacedOut = (seconds: number, retryAfterMs: number): SignInResult => ({
  ok: false,
  message: `Too many sign-in attempts for this account. Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`,
  retryAfterMs,
});

describe("backoffDelayMs", () => {
  it("is nothing below ten failures, then 250 ms doubling, capped", () => {
    expect([0, 1, 9].map(backoffDelayMs)).toEqual([0, 0, 0]);
    expect([10, 11, 12, 13, 14].map(backoffDelayMs)).toEqual([250, 500, 1_000, 2_000, 4_000]);
    expect([15, 100, 10_000].map(backoffDelayMs)).toEqual([BACKOFF_MAX_MS, BACKOFF_MAX_MS, BACKOFF_MAX_MS]);
  });
});

describe("the email's back-off", () => {
  it("refuses, never delays, an attempt that comes before 250 ms (doubling, at most 4 s) after the email's last failure, saying when to come back", async () => {
    const t0 = new Date("2031-02-01T10:00:00Z");
    const email = "spaced@example.com";
    for (let i = 0; i < 10; i++) expect(await guess(email, `203.0.113.${i}`, at(t0, i))).toEqual(WRONG);
    // The tenth failure was at 9 s: the next attempt may come at 9.25 s, and not before, from any address.
    const started = performance.now();
    expect(await guess(email, "203.0.113.50", at(t0, 9.1))).toEqual(spacedOut(1, 150));
    expect(performance.now() - started).toBeLessThan(1_000);
    let last = 9;
    for (const [k, delay] of [0.25, 0.5, 1, 2, 4, 4].entries()) {
      expect(await guess(email, "203.0.113.51", at(t0, last + delay - 0.001))).toEqual(spacedOut(1, 1));
      expect(await guess(email, `203.0.113.${60 + k}`, at(t0, last + delay))).toEqual(WRONG);
      last += delay;
    }
    // A refused attempt is not a failure: it does not push the next allowed time further.
    expect(await guess(email, "203.0.113.53", at(t0, last + 3))).toEqual(spacedOut(1, 1_000));
    expect(await guess(email, "203.0.113.53", at(t0, last + 4))).toEqual(WRONG);
  });

  it("lets one of many parallel attempts on an email under back-off reach the password check; the others are refused at once", async () => {
    const t0 = new Date("2031-03-01T10:00:00Z");
    const email = "parallel@example.com";
    for (let i = 0; i < 10; i++) await guess(email, `203.0.113.${100 + i}`, at(t0, i));
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => guess(email, `198.51.100.${100 + i}`, at(t0, 20))),
    );
    expect(results.filter((r) => r.ok === false && r.message === INVALID_CREDENTIALS)).toHaveLength(1);
    // The one that went ahead is the eleventh failure: the next may come 500 ms after it.
    expect(results.filter((r) => r.ok === false && r.retryAfterMs === 500)).toHaveLength(11);
  });
});

describe("the audit log of refusals", () => {
  const throttledRows = (address: string, email: string) =>
    db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, "sign_in.throttled"),
          or(
            eq(auditLog.target, address),
            sql`${auditLog.details}->>'ip' = ${address}`,
            eq(auditLog.actorEmail, email),
          ),
        ),
      )
      .orderBy(auditLog.id);

  it("counts refusals in one record per (address, email) per 15 minutes instead of one each", async () => {
    const t0 = new Date("2031-04-01T10:10:00Z");
    for (let i = 0; i < 5; i++) expect(await guess("counted@example.com", "198.51.100.30", at(t0, i))).toEqual(WRONG);
    for (let i = 0; i < 30; i++)
      expect((await guess("counted@example.com", "198.51.100.30", at(t0, 10 + i))).ok).toBe(false);
    // 10:15 starts the next window, and a new record.
    for (let i = 0; i < 3; i++) await guess("counted@example.com", "198.51.100.30", at(t0, 5 * 60 + i));
    const rows = await throttledRows("198.51.100.30", "counted@example.com");
    expect(
      rows.map((r) => ({
        at: r.at,
        actorEmail: r.actorEmail,
        target: r.target,
        outcome: r.outcome,
        details: r.details,
      })),
    ).toEqual([
      {
        at: at(t0, 10),
        actorEmail: "counted@example.com",
        target: "198.51.100.30",
        outcome: "denied",
        details: { reason: "pair", count: 30, lastAt: at(t0, 39).toISOString() },
      },
      {
        at: at(t0, 300),
        actorEmail: "counted@example.com",
        target: "198.51.100.30",
        outcome: "denied",
        details: { reason: "pair", count: 3, lastAt: at(t0, 302).toISOString() },
      },
    ]);
  });

  it("keys a spraying address's refusals by the address alone, so invented emails add no records", async () => {
    const t0 = new Date("2031-04-02T10:00:00Z");
    for (let i = 0; i < 20; i++)
      expect(await guess(`sprayed${i}@example.com`, "198.51.100.31", at(t0, i))).toEqual(WRONG);
    for (let i = 0; i < 40; i++)
      expect((await guess(`invented${i}@example.com`, "198.51.100.31", at(t0, 30 + i))).ok).toBe(false);
    const rows = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "sign_in.throttled"), eq(auditLog.target, "198.51.100.31")));
    expect(rows).toMatchObject([{ actorEmail: null, details: { reason: "address", count: 40 } }]);
  });

  it("keys an email's back-off refusals by the email alone, however many addresses try it", async () => {
    const t0 = new Date("2031-04-03T10:00:00Z");
    for (let i = 0; i < 10; i++) await guess("wanted@example.com", `203.0.113.${i}`, at(t0, i));
    for (let i = 0; i < 25; i++)
      expect((await guess("wanted@example.com", `2001:db8:${i}::/64`, at(t0, 9.1))).ok).toBe(false);
    const rows = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "sign_in.throttled"), eq(auditLog.actorEmail, "wanted@example.com")));
    expect(rows).toMatchObject([{ target: null, details: { reason: "email", count: 25 } }]);
  });
});

describe("lockedOutEmails and unlockSignIn", () => {
  const t0 = new Date("2031-01-01T10:00:00Z");

  beforeAll(async () => {
    await fail("pair@example.com", () => "198.51.100.1", 5, t0); // refused from one address
    await fail("spread@example.com", (i) => `198.51.100.${10 + i}`, 10, t0); // under back-off
    await fail("few@example.com", () => "198.51.100.2", 4, t0); // neither
  });

  it("names the emails refused from an address or under back-off, lower-cased, and no others", async () => {
    const now = at(t0, 60);
    const locked = await lockedOutEmails(
      ["Pair@Example.com", "spread@example.com", "few@example.com", "nobody@example.com"],
      now,
    );
    expect(locked).toEqual(new Set(["pair@example.com", "spread@example.com"]));
    expect(await lockedOutEmails([], now)).toEqual(new Set());
    // Once the window has passed nobody is locked out.
    expect(await lockedOutEmails(["pair@example.com", "spread@example.com"], at(t0, 16 * 60))).toEqual(new Set());
  });

  it("clears an email's failures so every address may try again at once", async () => {
    const now = at(t0, 9.1);
    expect(await throttleState({ email: "pair@example.com", address: "198.51.100.1" }, now)).toMatchObject({
      refused: true,
      reason: "pair",
    });
    expect(await throttleState({ email: "spread@example.com", address: "198.51.100.99" }, now)).toMatchObject({
      refused: true,
      reason: "email",
    });
    expect(await db.transaction((tx) => unlockSignIn("PAIR@example.com", tx))).toBe(5);
    expect(await throttleState({ email: "pair@example.com", address: "198.51.100.1" }, now)).toEqual({
      refused: false,
      knownGood: false,
    });
    expect(await db.transaction((tx) => unlockSignIn("spread@example.com", tx))).toBe(10);
    expect(await throttleState({ email: "spread@example.com", address: "198.51.100.99" }, now)).toEqual({
      refused: false,
      knownGood: false,
    });
    expect(await lockedOutEmails(["pair@example.com", "spread@example.com"], now)).toEqual(new Set());
    expect(await db.transaction((tx) => unlockSignIn("nobody@example.com", tx))).toBe(0);
  });

  it("lets a user in from an address refused for others' failures (a shared one) that they signed in from before", async () => {
    const t1 = new Date("2031-02-01T10:00:00Z");
    await db
      .insert(loginAttempts)
      .values({ email: "office@example.com", ip: "direct", succeeded: true, attemptedAt: at(t1, -3600) });
    for (let i = 0; i < 20; i++) await fail(`sprayed${i}@example.com`, () => "direct", 1, at(t1, i));
    const now = at(t1, 30);
    expect(await throttleState({ email: "office@example.com", address: "direct" }, now)).toMatchObject({
      refused: true,
      reason: "address",
    });
    expect(await db.transaction((tx) => unlockSignIn("office@example.com", tx, now))).toBe(20);
    expect(await throttleState({ email: "office@example.com", address: "direct" }, now)).toEqual({
      refused: false,
      knownGood: true,
    });
  });
});

describe("purgeOldAttempts", () => {
  it("drops failures after a day but keeps successes for 30 days, which is how long they make an address known", async () => {
    const t0 = new Date("2031-06-01T10:00:00Z");
    const day = 24 * 60 * 60;
    const row = (ip: string, succeeded: boolean, secondsAgo: number) => ({
      email: "purged@example.com",
      ip,
      succeeded,
      attemptedAt: at(t0, -secondsAgo),
    });
    await db
      .insert(loginAttempts)
      .values([
        row("192.0.2.1", false, day + 1),
        row("192.0.2.2", false, day - 60),
        row("192.0.2.3", true, 29 * day),
        row("192.0.2.4", true, 31 * day),
      ]);
    await purgeOldAttempts(t0);
    const left = await db
      .select({ ip: loginAttempts.ip })
      .from(loginAttempts)
      .where(eq(loginAttempts.email, "purged@example.com"))
      .orderBy(loginAttempts.ip);
    expect(left.map((r) => r.ip)).toEqual(["192.0.2.2", "192.0.2.3"]);
    expect(await throttleState({ email: "purged@example.com", address: "192.0.2.3" }, t0)).toEqual({
      refused: false,
      knownGood: true,
    });
  });
});
