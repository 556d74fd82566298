import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import { setUpTestDatabase } from "@/lib/testing/database";
import { auditLog, consoleUsers, loginAttempts } from "@/lib/db/schema";
import type { Database } from "@/lib/db";
import { attemptSignIn, INVALID_CREDENTIALS } from "./sign-in";
import { createUser, setUserDisabled, UserExistsError } from "./users";
import { throttleState } from "./throttle";

let db: Database;
let tearDown: () => Promise<void>;

beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
  await createUser({ email: "Ada@Example.com", name: "Ada", role: "admin", password: "correct-horse-battery" });
  await createUser({ email: "dee@example.com", name: "Dee", role: "support", password: "correct-horse-battery" });
  await setUserDisabled("dee@example.com", true);
});
afterAll(() => tearDown());

describe("console users", () => {
  it("stores an argon2id hash, never the password", async () => {
    const [row] = await db.select().from(consoleUsers).where(eq(consoleUsers.name, "Ada"));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row?.passwordHash).not.toContain("correct-horse-battery");
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
  it("accepts the right password with any email casing", async () => {
    const result = await attemptSignIn({ email: " ADA@example.com ", password: "correct-horse-battery" }, "10.0.0.1");
    expect(result).toMatchObject({ ok: true, user: { email: "Ada@Example.com", role: "admin" } });
  });

  it("gives one message for a wrong password and an unknown email", async () => {
    const wrong = await attemptSignIn({ email: "ada@example.com", password: "nope" }, "10.0.0.2");
    const unknown = await attemptSignIn({ email: "ghost@example.com", password: "nope" }, "10.0.0.2");
    expect(wrong).toEqual({ ok: false, message: INVALID_CREDENTIALS });
    expect(unknown).toEqual({ ok: false, message: INVALID_CREDENTIALS });
  });

  it("refuses a disabled user even with the right password", async () => {
    const result = await attemptSignIn({ email: "dee@example.com", password: "correct-horse-battery" }, "10.0.0.3");
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
  it("locks an email after five failures within 15 minutes, for 15 minutes, and records it", async () => {
    const t0 = new Date("2030-01-01T10:00:00Z");
    for (let i = 0; i < 5; i++) {
      await attemptSignIn({ email: "ada@example.com", password: `bad-${i}` }, `10.1.0.${i}`, new Date(t0.getTime() + i * 1000));
    }
    const locked = await attemptSignIn({ email: "ada@example.com", password: "correct-horse-battery" }, "10.1.0.9", new Date(t0.getTime() + 10_000));
    expect(locked).toEqual({ ok: false, message: "Too many failed sign-in attempts. Try again in 15 minutes." });
    const audits = await db.select().from(auditLog).where(eq(auditLog.action, "sign_in.throttled"));
    expect(audits.length).toBeGreaterThan(0);
    // 15 minutes after the first of the five failures the lock lifts.
    const later = await attemptSignIn({ email: "ada@example.com", password: "correct-horse-battery" }, "10.1.0.9", new Date(t0.getTime() + 15 * 60_000 + 1000));
    expect(later.ok).toBe(true);
  });

  it("locks an IP after five failures across different emails", async () => {
    const t0 = new Date("2030-02-01T10:00:00Z");
    for (let i = 0; i < 5; i++) {
      await attemptSignIn({ email: `someone${i}@example.com`, password: "bad" }, "10.2.0.1", t0);
    }
    expect((await throttleState("fresh@example.com", "10.2.0.1", t0)).locked).toBe(true);
    expect((await throttleState("fresh@example.com", "10.2.0.2", t0)).locked).toBe(false);
  });

  it("lets no more than five of many parallel guesses reach the password check", async () => {
    const t0 = new Date("2030-04-01T10:00:00Z");
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => attemptSignIn({ email: "ada@example.com", password: `guess-${i}` }, `10.4.0.${i}`, t0)),
    );
    const checked = results.filter((r) => !r.ok && r.message === INVALID_CREDENTIALS);
    expect(checked).toHaveLength(5);
    expect(results.filter((r) => !r.ok && r.message.startsWith("Too many"))).toHaveLength(7);
  });

  it("counts a good password as a success, not a failure", async () => {
    const t0 = new Date("2030-05-01T10:00:00Z");
    for (let i = 0; i < 6; i++) {
      expect((await attemptSignIn({ email: "ada@example.com", password: "correct-horse-battery" }, "10.5.0.1", t0)).ok).toBe(true);
    }
    const rows = await db.select().from(loginAttempts).where(eq(loginAttempts.ip, "10.5.0.1"));
    expect(rows.map((r) => r.succeeded)).toEqual([true, true, true, true, true, true]);
  });

  it("does not lock after four failures", async () => {
    const t0 = new Date("2030-03-01T10:00:00Z");
    for (let i = 0; i < 4; i++) await attemptSignIn({ email: "dee@example.com", password: "bad" }, "10.3.0.1", t0);
    expect((await throttleState("dee@example.com", "10.3.0.1", t0)).locked).toBe(false);
  });
});
