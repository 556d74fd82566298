import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, count, eq } from "drizzle-orm";
import { setUpTestDatabase } from "@/lib/testing/database";
import { auditLog, consoleUsers, loginAttempts } from "@/lib/db/schema";
import type { Database } from "@/lib/db";
import { attemptSignIn, INVALID_CREDENTIALS } from "./sign-in";
import { createUser, setUserDisabled, UserExistsError } from "./users";
import { claimAttempt, throttleState } from "./throttle";

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

/** A sign-in at a given moment whose backoff waits are recorded instead of slept. */
function signInAt(now: Date, email: string, password: string, ip: string, waits: number[] = []) {
  return attemptSignIn({ email, password }, ip, {
    now,
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
}

const at = (t0: Date, seconds: number) => new Date(t0.getTime() + seconds * 1000);
const TOO_MANY = /^Too many failed sign-in attempts from this address\. Try again in \d+ minutes?\.$/;

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
    await db.insert(consoleUsers).values({ email: "sso-only@example.com", name: "Sso", role: "admin", passwordHash: null });
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
    expect(result).toEqual({ ok: false, message: "That email address is too long." });
    expect((await db.select({ n: count() }).from(consoleUsers))[0]!.n).toBe(before);
    const [attempt] = await db.select().from(loginAttempts).where(eq(loginAttempts.ip, "10.0.0.4"));
    expect(attempt?.email.length).toBe(320);
    expect(attempt?.succeeded).toBe(false);
  });
});

describe("throttling", () => {
  it("an attacker's 100 wrong passwords from other addresses do not keep the admin out", async () => {
    const t0 = new Date("2030-01-01T10:00:00Z");
    // 25 addresses, 4 guesses each: under every per-address limit, 100 failures for the one email.
    for (let i = 0; i < 100; i++) {
      const result = await signInAt(at(t0, i), "ada@example.com", `guess-${i}`, `198.51.100.${Math.floor(i / 4)}`);
      expect(result).toEqual({ ok: false, message: INVALID_CREDENTIALS });
    }
    const waits: number[] = [];
    const admin = await signInAt(at(t0, 120), "ada@example.com", PASSWORD, "192.0.2.7", waits);
    expect(admin.ok).toBe(true);
    // Slowed, as every attempt on that email now is, but by no more than the cap.
    expect(waits).toEqual([4_000]);
    const throttled = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "sign_in.throttled"), eq(auditLog.actorEmail, "ada@example.com")));
    expect(throttled).toEqual([]);
  });

  it("refuses an address after five failures for one email, for 15 minutes, and records it; other addresses may still try", async () => {
    const t0 = new Date("2030-02-01T10:00:00Z");
    for (let i = 0; i < 5; i++) {
      expect(await signInAt(at(t0, i), "ada@example.com", `bad-${i}`, "198.51.100.200")).toEqual({ ok: false, message: INVALID_CREDENTIALS });
    }
    const refused = await signInAt(at(t0, 10), "ada@example.com", PASSWORD, "198.51.100.200");
    expect(refused).toEqual({ ok: false, message: "Too many failed sign-in attempts from this address. Try again in 15 minutes." });
    const audits = await db.select().from(auditLog).where(eq(auditLog.action, "sign_in.throttled"));
    expect(audits.at(-1)).toMatchObject({ actorEmail: "ada@example.com", outcome: "denied", details: { ip: "198.51.100.200" } });
    expect((await signInAt(at(t0, 11), "ada@example.com", PASSWORD, "192.0.2.8")).ok).toBe(true);
    // 15 minutes after the first of the five failures the refusal lifts.
    expect((await signInAt(at(t0, 15 * 60 + 1), "ada@example.com", PASSWORD, "198.51.100.200")).ok).toBe(true);
  });

  it("does not refuse after four failures, and a good password wipes that address's failures for the email", async () => {
    const t0 = new Date("2030-03-01T10:00:00Z");
    for (let i = 0; i < 4; i++) await signInAt(at(t0, i), "ada@example.com", "bad", "198.51.100.201");
    expect(await throttleState("ada@example.com", "198.51.100.201", at(t0, 5))).toEqual({ refused: false, delayMs: 0 });
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
    expect((await throttleState("fresh@example.com", "198.51.100.203", at(t0, 30))).refused).toBe(false);
    expect((await signInAt(at(t0, 31), "ada@example.com", PASSWORD, "198.51.100.203")).ok).toBe(true);
  });

  it("slows each attempt on an email after ten failures from anywhere: 250 ms doubling, capped at 4 s", async () => {
    const t0 = new Date("2030-05-01T10:00:00Z");
    const waits: number[] = [];
    for (let i = 0; i < 16; i++) {
      await signInAt(at(t0, i), "ada@example.com", `guess-${i}`, `203.0.113.${i}`, waits);
    }
    expect(waits).toEqual([250, 500, 1_000, 2_000, 4_000, 4_000]);
  });

  it("lets no more than five of many parallel guesses from one address reach the password check", async () => {
    const t0 = new Date("2030-06-01T10:00:00Z");
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => signInAt(t0, "ada@example.com", `guess-${i}`, "198.51.100.204")),
    );
    expect(results.filter((r) => !r.ok && r.message === INVALID_CREDENTIALS)).toHaveLength(5);
    expect(results.filter((r) => !r.ok && TOO_MANY.test(r.message))).toHaveLength(7);
  });

  it("holds no lock while an attempt waits out its backoff", async () => {
    const t0 = new Date("2030-07-01T10:00:00Z");
    for (let i = 0; i < 10; i++) await signInAt(at(t0, i), "ada@example.com", "bad", `203.0.113.${100 + i}`);
    let release!: () => void;
    let waiting!: () => void;
    const started = new Promise<void>((resolve) => (waiting = resolve));
    const slowed = attemptSignIn({ email: "ada@example.com", password: PASSWORD }, "203.0.113.120", {
      now: at(t0, 20),
      sleep: () => {
        waiting();
        return new Promise<void>((resolve) => (release = resolve));
      },
    });
    await started;
    // Another attempt on the same email is claimed while the first one still waits.
    const claimed = await claimAttempt("ada@example.com", "203.0.113.121", at(t0, 21));
    expect(claimed).toMatchObject({ refused: false, delayMs: 500 });
    release();
    expect((await slowed).ok).toBe(true);
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
