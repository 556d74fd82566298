import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Database } from "@/lib/db";
import { auditLog, consoleUsers, loginAttempts } from "@/lib/db/schema";
import { apiTokenGuesses } from "@/lib/db/tokens-schema";
import { reloadEnv } from "@/lib/env";
import { unlockMember } from "@/lib/team/team";
import { setUpTestDatabase } from "@/lib/testing/database";
import { createApiToken, revokeApiTokenByName } from "@/lib/tokens/tokens";
import { handleListEvents } from "@/lib/webhooks/api";

import { GUESS_MAX_PER_ADDRESS } from "./api-token-throttle";
import { REFUSED_ANSWER_DELAY_MS } from "./api-tokens";
import { attemptSignIn } from "./sign-in";
import { PAIR_MAX_FAILURES } from "./throttle";
import { createUser, type PublicUser } from "./users";

let db: Database;
let tearDown: () => Promise<void>;
const PASSWORD = "long-enough-password";
let admin: PublicUser;

beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
  admin = await createUser({ email: "admin@example.com", name: "Admin", role: "admin", password: PASSWORD });
  await createUser({ email: "support@example.com", name: "Support", role: "support", password: PASSWORD });
});
afterAll(() => tearDown());

/** How many proxies the console trusts: 1 reads each caller's address, 0 gives every caller the one key `direct`. */
function trustProxies(hops: 0 | 1) {
  process.env.CONSOLE_TRUSTED_PROXY_HOPS = String(hops);
  reloadEnv();
}

const list = (secret: string, address: string) =>
  handleListEvents(
    new Request("http://console.test/api/webhook-events", {
      headers: { authorization: `Bearer ${secret}`, "x-forwarded-for": address },
    }),
  );

/** Bearer values sent at once, each from `addressOf(i)`, with how long the slowest answer took. */
async function sendAll(
  secrets: string[],
  addressOf: (i: number) => string,
): Promise<{ statuses: number[]; ms: number }> {
  const started = performance.now();
  const statuses = (await Promise.all(secrets.map((secret, i) => list(secret, addressOf(i))))).map((r) => r.status);
  return { statuses, ms: performance.now() - started };
}

const guesses = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `tcapi_${tag}${i}`);

async function newToken(name: string): Promise<string> {
  const created = await createApiToken(
    { actor: { id: null, email: "cli" }, user: null },
    { name, role: "support", scopes: ["api"] },
  );
  if (!created.ok) throw new Error(created.error);
  return created.secret;
}

const guessRows = async (address: string) =>
  (await db.select({ n: count() }).from(apiTokenGuesses).where(eq(apiTokenGuesses.address, address)))[0]!.n;
const signIn = (email: string, password: string, address: string) => attemptSignIn({ email, password }, address);

describe.each([
  { hops: 1 as const, from: "one address", addressOf: () => "192.0.2.66" },
  { hops: 1 as const, from: "many addresses", addressOf: (i: number) => `192.0.2.${100 + i}` },
  { hops: 0 as const, from: "callers the console cannot tell apart", addressOf: (i: number) => `192.0.2.${100 + i}` },
])("30 bad bearer values from $from", ({ hops, from, addressOf }) => {
  it("leave a valid token answering 200 and the right password signing in, from the same addresses", async () => {
    trustProxies(hops);
    const good = await newToken(`good, ${from}`);
    const flood = await sendAll(guesses(30, from.replaceAll(" ", "")), addressOf);
    expect(flood.statuses.every((status) => status === 401 || status === 429)).toBe(true);
    expect(flood.ms).toBeGreaterThanOrEqual(REFUSED_ANSWER_DELAY_MS - 5); // every guess waits, however many come at once
    expect((await list(good, addressOf(0))).status).toBe(200);
    expect((await list(good, addressOf(29))).status).toBe(200);
    expect(await signIn("support@example.com", PASSWORD, addressOf(0))).toMatchObject({ ok: true });
    expect(await signIn("admin@example.com", PASSWORD, addressOf(29))).toMatchObject({ ok: true });
    // Guesses never count as failed sign-ins.
    expect(await db.select({ n: count() }).from(loginAttempts).where(eq(loginAttempts.succeeded, false))).toEqual([
      { n: 0 },
    ]);
  });
});

describe("the guess limit", () => {
  it("refuses an address's guesses past the limit with 429, writing nothing more, and audits the refusal once", async () => {
    trustProxies(1);
    const guesser = "198.51.100.66";
    const first = await sendAll(guesses(GUESS_MAX_PER_ADDRESS, "limit"), () => guesser);
    expect(first.statuses).toEqual(Array(GUESS_MAX_PER_ADDRESS).fill(401));
    const refused = await list("tcapi_one-more", guesser);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(800);
    expect(await refused.json()).toEqual({
      error: "too_many_requests",
      errorDescription: "Too many bad tokens from this address. Try again later.",
    });
    const more = await sendAll(guesses(20, "more"), () => guesser);
    expect(more.statuses).toEqual(Array(20).fill(429));
    expect(await guessRows(guesser)).toBe(GUESS_MAX_PER_ADDRESS);
    expect(
      await db
        .select({ n: count() })
        .from(auditLog)
        .where(and(eq(auditLog.action, "api_token.guesses_throttled"), eq(auditLog.target, guesser))),
    ).toEqual([{ n: 1 }]);
  });

  it("holds under 50 parallel guesses: at most the limit is recorded", async () => {
    trustProxies(1);
    const parallel = await sendAll(guesses(50, "parallel"), () => "198.51.100.50");
    expect(await guessRows("198.51.100.50")).toBe(GUESS_MAX_PER_ADDRESS);
    expect(parallel.statuses.filter((status) => status === 401)).toHaveLength(GUESS_MAX_PER_ADDRESS);
    expect(parallel.statuses.filter((status) => status === 429)).toHaveLength(50 - GUESS_MAX_PER_ADDRESS);
  });
});

it("a revoked token waits as long as a guess, and is not counted as one", async () => {
  trustProxies(1);
  const secret = await newToken("revoked one");
  await revokeApiTokenByName({ id: null, email: "cli" }, "revoked one");
  const started = performance.now();
  const response = await list(secret, "198.51.100.11");
  expect(performance.now() - started).toBeGreaterThanOrEqual(REFUSED_ANSWER_DELAY_MS - 5);
  expect(response.status).toBe(401);
  expect(await guessRows("198.51.100.11")).toBe(0);
});

it("an admin's unlock lets a user locked out by failed passwords sign in again after a guess flood", async () => {
  trustProxies(0);
  await sendAll(guesses(30, "beforeunlock"), () => "203.0.113.9");
  for (let i = 0; i < PAIR_MAX_FAILURES; i++) await signIn("support@example.com", "wrong-password-here", "203.0.113.9");
  expect(await signIn("support@example.com", PASSWORD, "203.0.113.9")).toMatchObject({ ok: false });
  const actor = { id: admin.id, email: admin.email };
  const [support] = await db
    .select({ id: consoleUsers.id })
    .from(consoleUsers)
    .where(eq(consoleUsers.email, "support@example.com"));
  expect(await unlockMember(actor, { userId: support!.id })).toEqual({ ok: true });
  expect(await signIn("support@example.com", PASSWORD, "203.0.113.9")).toMatchObject({ ok: true });
});
