import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import type { Database } from "@/lib/db";
import { auditLog, consoleUsers, loginAttempts } from "@/lib/db/schema";
import { setUpTestDatabase } from "@/lib/testing/database";

import { issueDeviceToken } from "./device-cookie";
import { HashGate } from "./hash-gate";
import { attemptSignIn, INVALID_CREDENTIALS, type SignInOptions } from "./sign-in";
import { throttleState } from "./throttle";
import { createUser, setUserDisabled, UserExistsError } from "./users";

let db: Database;
let tearDown: () => Promise<void>;

const PASSWORD = "correct-horse-battery";

beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
  await createUser({ email: "Ada@Example.com", name: "Ada", role: "admin", password: PASSWORD });
  await createUser({ email: "dee@example.com", name: "Dee", role: "support", password: PASSWORD });
  await setUserDisabled("dee@example.com", true);
});
afterAll(() => tearDown());

/** A sign-in at a given moment. */
function signInAt(now: Date, email: string, password: string, ip: string, options: Omit<SignInOptions, "now"> = {}) {
  return attemptSignIn({ email, password }, ip, { now, ...options });
}

const at = (t0: Date, seconds: number) => new Date(t0.getTime() + Math.round(seconds * 1000));
const TOO_MANY = /^Too many failed sign-in attempts from this address\. Try again in \d+ minutes?\.$/;
const SPACED_OUT = /^Too many sign-in attempts for this account\. Try again in \d+ seconds?\.$/;

describe("console users", () => {
  it("stores an argon2id hash, never the password", async () => {
    const [row] = await db.select().from(consoleUsers).where(eq(consoleUsers.name, "Ada"));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row?.passwordHash).not.toContain(PASSWORD);
  });

  it("treats emails case-insensitively as unique", async () => {
    await expect(
      createUser({ email: "ada@example.COM", name: "Ada 2", role: "support", password: "another-long-pass" }),
    ).rejects.toBeInstanceOf(UserExistsError);
  });

  it("refuses a short password", async () => {
    await expect(createUser({ email: "x@example.com", name: "X", role: "support", password: "short" })).rejects.toThrow(
      /12 characters/,
    );
  });
});

describe("attemptSignIn", () => {
  it("accepts the right password with any email casing, and records when", async () => {
    const now = new Date("2029-06-01T09:30:00Z");
    const result = await signInAt(now, " ADA@example.com ", PASSWORD, "10.0.0.1");
    expect(result).toMatchObject({ ok: true, user: { email: "Ada@Example.com", role: "admin", sessionVersion: 1 } });
    const [row] = await db.select().from(consoleUsers).where(eq(consoleUsers.name, "Ada"));
    expect(row?.lastSignInAt).toEqual(now);
  });

  it("gives one message for a wrong password and an unknown email", async () => {
    const wrong = await attemptSignIn({ email: "ada@example.com", password: "nope" }, "10.0.0.2");
    const unknown = await attemptSignIn({ email: "ghost@example.com", password: "nope" }, "10.0.0.2");
    expect(wrong).toEqual({ ok: false, message: INVALID_CREDENTIALS });
    expect(unknown).toEqual({ ok: false, message: INVALID_CREDENTIALS });
  });

  it("never lets in a user who has no password, whatever is typed", async () => {
    await db
      .insert(consoleUsers)
      .values({ email: "sso-only@example.com", name: "Sso", role: "admin", passwordHash: null });
    for (const password of ["", "x", "null", PASSWORD]) {
      const result = await attemptSignIn({ email: "sso-only@example.com", password }, "10.0.0.5");
      expect(result.ok).toBe(false);
    }
    expect(await attemptSignIn({ email: "sso-only@example.com", password: "anything" }, "10.0.0.5")).toEqual({
      ok: false,
      message: INVALID_CREDENTIALS,
    });
  });

  it("refuses a disabled user even with the right password", async () => {
    const result = await attemptSignIn({ email: "dee@example.com", password: PASSWORD }, "10.0.0.3");
    expect(result).toMatchObject({ ok: false, message: expect.stringContaining("disabled") });
  });

  it("rejects malformed input with a form message, storing only the failed attempt (email cut to 320)", async () => {
    const before = (await db.select({ n: count() }).from(consoleUsers))[0]!.n;
    const huge = `${"a".repeat(10_240)}@example.com`;
    const result = await attemptSignIn({ email: huge, password: "x" }, "10.0.0.4");
    expect(result).toEqual({ ok: false, message: "An email address has at most 320 characters." });
    expect((await db.select({ n: count() }).from(consoleUsers))[0]!.n).toBe(before);
    const [attempt] = await db.select().from(loginAttempts).where(eq(loginAttempts.ip, "10.0.0.4"));
    expect(attempt?.email.length).toBe(320);
    expect(attempt?.succeeded).toBe(false);
  });
});

describe("throttling", () => {
  it("an attacker's 100 wrong passwords from other addresses do not keep the admin out", async () => {
    const t0 = new Date("2030-01-01T10:00:00Z");
    expect((await signInAt(at(t0, -3600), "ada@example.com", PASSWORD, "192.0.2.7")).ok).toBe(true);
    // 25 addresses, 4 guesses each, one a second: under every per-address limit, and past ten failures
    // the email's back-off refuses most of them without a password check.
    let lastChecked = 0;
    for (let i = 0; i < 100; i++) {
      const result = await signInAt(at(t0, i), "ada@example.com", `guess-${i}`, `198.51.100.${Math.floor(i / 4)}`);
      expect(result).toMatchObject({
        ok: false,
        message: expect.stringMatching(new RegExp(`^${INVALID_CREDENTIALS}$|${SPACED_OUT.source}`)),
      });
      if (!result.ok && result.message === INVALID_CREDENTIALS) lastChecked = i;
    }
    const during = at(t0, lastChecked + 0.5);
    expect(await signInAt(during, "ada@example.com", PASSWORD, "192.0.2.77")).toMatchObject({
      ok: false,
      message: expect.stringMatching(SPACED_OUT),
    });
    // The admin's own address is spared the back-off and gets in at once…
    expect((await signInAt(during, "ada@example.com", PASSWORD, "192.0.2.7")).ok).toBe(true);
    // …and any address gets in once it has run out, at most 4 s after the last checked guess.
    expect((await signInAt(at(t0, lastChecked + 4), "ada@example.com", PASSWORD, "192.0.2.8")).ok).toBe(true);
  });

  it("while the back-off refuses a new address, one that signed in to the email before gets in, and so does a browser with its device cookie", async () => {
    const t0 = new Date("2030-09-01T10:00:00Z");
    expect((await signInAt(t0, "ada@example.com", PASSWORD, "2001:db8:50::/64")).ok).toBe(true);
    for (let i = 0; i < 10; i++) await signInAt(at(t0, 60 + i), "ada@example.com", "bad", `203.0.113.${150 + i}`);
    const during = at(t0, 69.1);
    expect(await signInAt(during, "ada@example.com", PASSWORD, "192.0.2.51")).toMatchObject({
      ok: false,
      message: expect.stringMatching(SPACED_OUT),
    });
    expect((await signInAt(during, "ada@example.com", PASSWORD, "2001:db8:50::/64")).ok).toBe(true);
    // The cookie a good password sign-in from this browser was given (at t0).
    const device = await issueDeviceToken("Ada@Example.com", t0);
    expect((await signInAt(during, "ada@example.com", PASSWORD, "192.0.2.52", { deviceToken: device })).ok).toBe(true);
    // Another email's cookie, a forged one or an expired one vouches for nothing.
    for (const deviceToken of [
      await issueDeviceToken("dee@example.com", t0),
      `${device}x`,
      await issueDeviceToken("ada@example.com", at(t0, -31 * 24 * 3600)),
    ]) {
      expect((await signInAt(during, "ada@example.com", PASSWORD, "192.0.2.53", { deviceToken })).ok).toBe(false);
    }
    // A cookie that has failed five times no longer does (OWASP's lockout per device).
    for (let i = 0; i < 5; i++) {
      expect(
        await signInAt(at(t0, 70 + i), "ada@example.com", "bad", `192.0.2.${60 + i}`, { deviceToken: device }),
      ).toEqual({ ok: false, message: INVALID_CREDENTIALS });
    }
    expect(
      await signInAt(at(t0, 75), "ada@example.com", PASSWORD, "192.0.2.65", { deviceToken: device }),
    ).toMatchObject({ ok: false, message: expect.stringMatching(SPACED_OUT) });
  });

  it("refuses a sign-in at once with a retry time when the password-check line is full, without counting it; a known caller has places of its own", async () => {
    const t0 = new Date("2030-10-01T10:00:00Z");
    expect((await signInAt(at(t0, -60), "ada@example.com", PASSWORD, "198.51.100.211")).ok).toBe(true);
    const gate = new HashGate({ atOnce: 1, waiting: { trusted: 1, untrusted: 2 } });
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const holding = [0, 1, 2].map(() => gate.tryRun("untrusted", () => blocked));
    expect(holding.every(Boolean)).toBe(true);

    const busy = await signInAt(t0, "ada@example.com", PASSWORD, "198.51.100.210", { hashGate: gate });
    expect(busy).toEqual({
      ok: false,
      message: "Too many sign-ins at once. Try again in 1 second.",
      retryAfterMs: 1_000,
    });
    expect(await db.select().from(loginAttempts).where(eq(loginAttempts.ip, "198.51.100.210"))).toEqual([]);

    const known = signInAt(t0, "ada@example.com", PASSWORD, "198.51.100.211", { hashGate: gate });
    await vi.waitFor(() => expect(gate.load()).toEqual({ running: 1, waiting: { trusted: 1, untrusted: 2 } }));
    release();
    expect((await known).ok).toBe(true);
    await Promise.all(holding);
  });

  it("refuses an address after five failures for one email, for 15 minutes, and records it; other addresses may still try", async () => {
    const t0 = new Date("2030-02-01T10:00:00Z");
    for (let i = 0; i < 5; i++) {
      expect(await signInAt(at(t0, i), "ada@example.com", `bad-${i}`, "198.51.100.200")).toEqual({
        ok: false,
        message: INVALID_CREDENTIALS,
      });
    }
    const refused = await signInAt(at(t0, 10), "ada@example.com", PASSWORD, "198.51.100.200");
    expect(refused).toEqual({
      ok: false,
      message: "Too many failed sign-in attempts from this address. Try again in 15 minutes.",
      retryAfterMs: 15 * 60_000 - 10_000,
    });
    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "sign_in.throttled"), eq(auditLog.target, "198.51.100.200")));
    expect(audits).toMatchObject([
      { actorEmail: "ada@example.com", outcome: "denied", details: { reason: "pair", count: 1 } },
    ]);
    expect((await signInAt(at(t0, 11), "ada@example.com", PASSWORD, "192.0.2.8")).ok).toBe(true);
    // 15 minutes after the first of the five failures the refusal lifts.
    expect((await signInAt(at(t0, 15 * 60 + 1), "ada@example.com", PASSWORD, "198.51.100.200")).ok).toBe(true);
  });

  it("does not refuse after four failures, and a good password wipes that address's failures for the email", async () => {
    const t0 = new Date("2030-03-01T10:00:00Z");
    for (let i = 0; i < 4; i++) await signInAt(at(t0, i), "ada@example.com", "bad", "198.51.100.201");
    expect(await throttleState({ email: "ada@example.com", address: "198.51.100.201" }, at(t0, 5))).toEqual({
      refused: false,
      knownGood: false,
    });
    expect((await signInAt(at(t0, 6), "ada@example.com", PASSWORD, "198.51.100.201")).ok).toBe(true);
    for (let i = 0; i < 4; i++) await signInAt(at(t0, 10 + i), "ada@example.com", "bad", "198.51.100.201");
    expect((await signInAt(at(t0, 20), "ada@example.com", PASSWORD, "198.51.100.201")).ok).toBe(true);
  });

  it("refuses an address that sprays many emails, and only that address", async () => {
    const t0 = new Date("2030-04-01T10:00:00Z");
    for (let i = 0; i < 20; i++) {
      expect(await signInAt(at(t0, i), `someone${i}@example.com`, "Winter2030!", "198.51.100.202")).toEqual({
        ok: false,
        message: INVALID_CREDENTIALS,
      });
    }
    expect(await signInAt(at(t0, 30), "fresh@example.com", "Winter2030!", "198.51.100.202")).toMatchObject({
      ok: false,
      message: expect.stringMatching(TOO_MANY),
    });
    expect((await throttleState({ email: "fresh@example.com", address: "198.51.100.203" }, at(t0, 30))).refused).toBe(
      false,
    );
    expect((await signInAt(at(t0, 31), "ada@example.com", PASSWORD, "198.51.100.203")).ok).toBe(true);
  });

  it("lets no more than five of many parallel guesses from one address reach the password check", async () => {
    const t0 = new Date("2030-06-01T10:00:00Z");
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => signInAt(t0, "ada@example.com", `guess-${i}`, "198.51.100.204")),
    );
    expect(results.filter((r) => !r.ok && r.message === INVALID_CREDENTIALS)).toHaveLength(5);
    expect(results.filter((r) => !r.ok && TOO_MANY.test(r.message))).toHaveLength(7);
  });

  it("counts a good password as a success, not a failure", async () => {
    const t0 = new Date("2030-08-01T10:00:00Z");
    for (let i = 0; i < 6; i++) {
      expect((await signInAt(t0, "ada@example.com", PASSWORD, "198.51.100.205")).ok).toBe(true);
    }
    const rows = await db.select().from(loginAttempts).where(eq(loginAttempts.ip, "198.51.100.205"));
    expect(rows.map((r) => r.succeeded)).toEqual([true, true, true, true, true, true]);
  });
});
