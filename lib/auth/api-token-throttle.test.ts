import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { auditLog, loginAttempts } from "@/lib/db/schema";
import { reloadEnv } from "@/lib/env";
import { setUpTestDatabase } from "@/lib/testing/database";
import { createApiToken } from "@/lib/tokens/tokens";
import { handleListEvents } from "@/lib/webhooks/api";
import { API_TOKEN_ATTEMPT_KEY } from "./api-token-throttle";
import { GUESS_ANSWER_DELAY_MS } from "./api-tokens";
import { ADDRESS_MAX_FAILURES, throttleState } from "./throttle";

let db: Database;
let tearDown: () => Promise<void>;

beforeAll(async () => {
  process.env.CONSOLE_TRUSTED_PROXY_HOPS = "1";
  reloadEnv();
  ({ db, tearDown } = await setUpTestDatabase());
});
afterAll(() => tearDown());

const list = (secret: string, address: string) =>
  handleListEvents(new Request("http://console.test/api/webhook-events", { headers: { authorization: `Bearer ${secret}`, "x-forwarded-for": address } }));
/** Guesses at once (each answer waits GUESS_ANSWER_DELAY_MS), with how long the slowest took. */
async function guessAll(secrets: string[], address: string): Promise<{ statuses: number[]; ms: number }> {
  const started = performance.now();
  const statuses = (await Promise.all(secrets.map((secret) => list(secret, address)))).map((r) => r.status);
  return { statuses, ms: performance.now() - started };
}
const rowCounts = async () => ({
  attempts: (await db.select({ n: count() }).from(loginAttempts))[0]!.n,
  audit: (await db.select({ n: count() }).from(auditLog))[0]!.n,
});

it("refuses an address after as many bad tokens as bad passwords, from memory, and lets a good token from elsewhere in", async () => {
  const created = await createApiToken({ actor: { id: null, email: "cli" }, user: null }, { name: "good", role: "support", scopes: ["api"] });
  if (!created.ok) throw new Error(created.error);
  const guesser = "192.0.2.66";
  const guesses = await guessAll(Array.from({ length: ADDRESS_MAX_FAILURES }, (_, i) => `tcapi_guess${i}`), guesser);
  expect(guesses.statuses).toEqual(Array(ADDRESS_MAX_FAILURES).fill(401));
  expect(guesses.ms).toBeGreaterThanOrEqual(GUESS_ANSWER_DELAY_MS - 5); // a guess's answer waits, however many come at once
  // The failures count as failed sign-ins from that address: a password from it is refused too.
  expect(await throttleState({ email: "someone@example.com", address: guesser })).toMatchObject({ refused: true, reason: "address" });
  expect(await db.select({ n: count() }).from(loginAttempts).where(eq(loginAttempts.email, API_TOKEN_ATTEMPT_KEY))).toEqual([{ n: ADDRESS_MAX_FAILURES }]);

  const refused = await list("tcapi_one-more", guesser);
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(800);
  expect(await refused.json()).toEqual({ error: "too_many_requests", errorDescription: "Too many bad tokens from this address. Try again later." });
  const before = await rowCounts();
  expect(before.audit).toBe(2); // the token's creation, and the refusal counted once per window
  const flood = await guessAll(Array.from({ length: 50 }, (_, i) => `tcapi_flood${i}`), guesser);
  expect(flood.statuses).toEqual(Array(50).fill(429));
  expect(flood.ms).toBeGreaterThanOrEqual(GUESS_ANSWER_DELAY_MS - 5); // and so does a refusal
  // Even the good token, from the refused address; the refusal is answered from memory, writing nothing.
  expect((await list(created.secret, guesser)).status).toBe(429);
  expect(await rowCounts()).toEqual(before);

  expect((await list(created.secret, "192.0.2.10")).status).toBe(200);
});

it("does not count a known token that no longer works as a guess", async () => {
  const created = await createApiToken({ actor: { id: null, email: "cli" }, user: null }, { name: "metrics only", role: "support", scopes: ["metrics"] });
  if (!created.ok) throw new Error(created.error);
  const before = await rowCounts();
  expect((await list(created.secret, "192.0.2.11")).status).toBe(403);
  expect((await rowCounts()).attempts).toBe(before.attempts);
});
