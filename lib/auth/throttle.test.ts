import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUpTestDatabase } from "@/lib/testing/database";
import type { Database } from "@/lib/db";
import { backoffDelayMs, BACKOFF_MAX_MS, claimAttempt, lockedOutEmails, throttleState, unlockSignIn } from "./throttle";

let db: Database;
let tearDown: () => Promise<void>;

beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
});
afterAll(() => tearDown());

const at = (t0: Date, seconds: number) => new Date(t0.getTime() + seconds * 1000);

/** `n` claimed attempts (each counts as failed until marked good) at one-second steps. */
async function fail(email: string, ips: (i: number) => string, n: number, t0: Date) {
  for (let i = 0; i < n; i++) expect(await claimAttempt(email, ips(i), at(t0, i))).toMatchObject({ refused: false });
}

describe("backoffDelayMs", () => {
  it("is nothing below ten failures, then 250 ms doubling, capped", () => {
    expect([0, 1, 9].map(backoffDelayMs)).toEqual([0, 0, 0]);
    expect([10, 11, 12, 13, 14].map(backoffDelayMs)).toEqual([250, 500, 1_000, 2_000, 4_000]);
    expect([15, 100, 10_000].map(backoffDelayMs)).toEqual([BACKOFF_MAX_MS, BACKOFF_MAX_MS, BACKOFF_MAX_MS]);
  });
});

describe("lockedOutEmails and unlockSignIn", () => {
  const t0 = new Date("2031-01-01T10:00:00Z");

  beforeAll(async () => {
    await fail("pair@example.com", () => "198.51.100.1", 5, t0); // refused from one address
    await fail("spread@example.com", (i) => `198.51.100.${10 + i}`, 10, t0); // slowed everywhere
    await fail("few@example.com", () => "198.51.100.2", 4, t0); // neither
  });

  it("names the emails refused from an address or slowed, lower-cased, and no others", async () => {
    const now = at(t0, 60);
    const locked = await lockedOutEmails(["Pair@Example.com", "spread@example.com", "few@example.com", "nobody@example.com"], now);
    expect(locked).toEqual(new Set(["pair@example.com", "spread@example.com"]));
    expect(await lockedOutEmails([], now)).toEqual(new Set());
    // Once the window has passed nobody is locked out.
    expect(await lockedOutEmails(["pair@example.com", "spread@example.com"], at(t0, 16 * 60))).toEqual(new Set());
  });

  it("clears an email's failures so every address may try again at once", async () => {
    const now = at(t0, 60);
    expect(await throttleState("pair@example.com", "198.51.100.1", now)).toMatchObject({ refused: true });
    expect(await db.transaction((tx) => unlockSignIn("PAIR@example.com", tx))).toBe(5);
    expect(await throttleState("pair@example.com", "198.51.100.1", now)).toEqual({ refused: false, delayMs: 0 });
    expect(await db.transaction((tx) => unlockSignIn("spread@example.com", tx))).toBe(10);
    expect(await throttleState("spread@example.com", "198.51.100.99", now)).toEqual({ refused: false, delayMs: 0 });
    expect(await lockedOutEmails(["pair@example.com", "spread@example.com"], now)).toEqual(new Set());
    expect(await db.transaction((tx) => unlockSignIn("nobody@example.com", tx))).toBe(0);
  });
});
