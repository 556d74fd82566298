import { and, asc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Database } from "@/lib/db";
import { auditLog, consoleUsers, webhookEvents } from "@/lib/db/schema";
import { apiTokenAddresses, apiTokens } from "@/lib/db/tokens-schema";
import { handleGetReplay } from "@/lib/destinations/api";
import { reloadEnv } from "@/lib/env";
import { scrapeMetrics } from "@/lib/metrics/metrics";
import { changeRole, listTeam, revokeSessions as revokeTeamSessions, setDisabled } from "@/lib/team/team";
import { setUpTestDatabase } from "@/lib/testing/database";
import { insertTestConnection, TENANT_ID } from "@/lib/testing/webhooks";
import { createApiToken, listApiTokens, revokeApiToken, revokeApiTokenByName } from "@/lib/tokens/tokens";
import { handleExportEvents, handleGetEvent, handleListEvents } from "@/lib/webhooks/api";
import { ensureEventPartitions } from "@/lib/webhooks/partitions";

import type { ApiTokenRevocationReason } from "./api-token-format";
import { REFUSED_ANSWER_DELAY_MS } from "./api-tokens";
import { authenticateMetrics } from "./guards";
import type { Role } from "./roles";
import { revokeSessions, setUserDisabled, setUserRole, type PublicUser } from "./users";

// Bearer tokens on the real route handlers, with real tokens in the test's database: no auth is mocked.

let db: Database;
let tearDown: () => Promise<void>;
let admin: PublicUser;
let support: PublicUser;
let eventId: number;

beforeAll(async () => {
  // One trusted proxy: X-Forwarded-For's last entry is the caller's address.
  process.env.CONSOLE_TRUSTED_PROXY_HOPS = "1";
  reloadEnv();
  ({ db, tearDown } = await setUpTestDatabase());
  admin = await newUser({ email: "admin@example.com", name: "Admin", role: "admin" });
  support = await newUser({ email: "support@example.com", name: "Support", role: "support" });
  const acme = (await insertTestConnection("Acme")).id;
  const time = new Date("2025-06-01T00:00:00.000Z");
  await ensureEventPartitions(time);
  const [event] = await db
    .insert(webhookEvents)
    .values({
      connectionId: acme,
      type: "authenticator.expired",
      eventId: "evt-1",
      tenantId: TENANT_ID,
      envelopeTime: time,
      firstReceivedAt: time,
      lastReceivedAt: time,
      signatureStatus: "verified_key1",
      rawBody: JSON.stringify({ data: { email: "alice@example.org" } }),
      userId: "usr_1",
      email: "alice@example.org",
      phoneNumber: "+15555550123",
    })
    .returning({ id: webhookEvents.id });
  eventId = event!.id;
});
afterAll(() => tearDown());

/** A new user without a password (nobody signs in here), so that no test waits on hashing one. */
async function newUser(values: { email: string; name: string; role: Role }): Promise<PublicUser> {
  const [user] = await db.insert(consoleUsers).values(values).returning();
  return user!;
}

async function token(
  user: PublicUser | null,
  name: string,
  input: { role: Role; scopes?: string[]; expiresInDays?: number },
): Promise<string> {
  const creator = user
    ? { actor: { id: user.id, email: user.email }, user: { id: user.id, role: user.role } }
    : { actor: { id: null, email: "cli" }, user: null };
  const created = await createApiToken(creator, { name, scopes: ["api"], ...input });
  if (!created.ok) throw new Error(created.error);
  return created.secret;
}

function get(path: string, secret: string, address = "198.51.100.7", extra: Record<string, string> = {}): Request {
  return new Request(`http://console.test${path}`, {
    headers: { authorization: `Bearer ${secret}`, "x-forwarded-for": address, ...extra },
  });
}

async function answer(response: Response) {
  return { status: response.status, body: await response.text() };
}

const list = (secret: string, address?: string) => handleListEvents(get("/api/webhook-events", secret, address));
const status = async (secret: string, address?: string) => (await list(secret, address)).status;
const adminActor = () => ({ id: admin.id, email: admin.email });

describe("API tokens on the /api routes", () => {
  it("makes a secret of tcapi_ and 43 URL-safe characters", async () => {
    expect(await token(support, "support: format", { role: "support" })).toMatch(/^tcapi_[A-Za-z0-9_-]{43}$/);
  });

  it("lets a support token read the log with emails masked", async () => {
    const secret = await token(support, "support: log", { role: "support" });
    const listed = await answer(await list(secret));
    expect(listed.status).toBe(200);
    expect(listed.body).toContain("evt-1");
    expect(listed.body).not.toContain("alice@example.org");
  });

  it("lets a support token export the log with emails masked", async () => {
    const secret = await token(support, "support: export", { role: "support" });
    const exported = await answer(await handleExportEvents(get("/api/webhook-events/export?format=csv", secret)));
    expect(exported.status).toBe(200);
    expect(exported.body).toContain("evt-1");
    expect(exported.body).not.toContain("alice@example.org");
  });

  it("answers 403 to a support token on an admin-only route", async () => {
    const secret = await token(support, "support: replays", { role: "support" });
    const replay = await handleGetReplay(get(`/api/replays/${crypto.randomUUID()}`, secret), crypto.randomUUID());
    expect(replay.status).toBe(403);
    expect(await replay.json()).toMatchObject({ error: "forbidden" });
  });

  it("lets an admin token read an event unmasked, as an admin session does", async () => {
    const secret = await token(admin, "admin: event", { role: "admin" });
    const event = await answer(await handleGetEvent(get(`/api/webhook-events/${eventId}`, secret), String(eventId)));
    expect(event.status).toBe(200);
    expect(event.body).toContain("alice@example.org");
  });

  it("lets an admin token through to the admin-only replays", async () => {
    const secret = await token(admin, "admin: replays", { role: "admin" });
    expect((await handleGetReplay(get("/api/replays/x", secret), crypto.randomUUID())).status).toBe(404);
  });

  it("lets an admin make a support token, which reads the log masked as support does", async () => {
    const secret = await token(admin, "admin's support script", { role: "support" });
    expect((await answer(await list(secret))).body).not.toContain("alice@example.org");
  });

  it("refuses to make a token of a role above its user's", async () => {
    expect(
      await createApiToken(
        { actor: { id: support.id, email: support.email }, user: { id: support.id, role: "support" } },
        { name: "x", role: "admin", scopes: ["api"] },
      ),
    ).toMatchObject({
      ok: false,
      field: "role",
    });
  });
});

describe("a token that does not work", () => {
  it.concurrent("is answered 401 even beside a session cookie, and the answer never echoes it", async () => {
    const guess = `tcapi_${"A".repeat(43)}`;
    const response = await handleListEvents(
      get("/api/webhook-events", guess, "198.51.100.8", { cookie: "next-auth.session-token=whatever" }),
    );
    expect(response.status).toBe(401);
    const body = await response.text();
    expect(JSON.parse(body)).toEqual({ error: "unauthorized", errorDescription: "This API token is not valid." });
    expect(body).not.toContain(guess);
  });

  it.concurrent("is answered 401 when the bearer header is empty, saying how to send a token", async () => {
    const empty = await handleListEvents(
      new Request("http://console.test/api/webhook-events", { headers: { authorization: "Bearer " } }),
    );
    expect(empty.status).toBe(401);
    expect(await empty.json()).toEqual({
      error: "unauthorized",
      errorDescription: "Send an API token as: Authorization: Bearer <token>.",
    });
  });

  /** A working token (checked) that `end` then stops, answering its secret. */
  async function ended(name: string, role: Role, user: PublicUser, end: () => Promise<unknown>): Promise<string> {
    const secret = await token(user, name, { role, expiresInDays: 1 });
    expect(await status(secret)).toBe(200);
    await end();
    return secret;
  }
  /** A new user of `role`, for a token of their own. */
  const userOf = (name: string, role: Role) => newUser({ email: `${name}@example.com`, name, role });

  // Each state's user is changed in the database itself: the team's own changes revoke the tokens, which the
  // tokens ending with their access (below) covers.
  it.concurrent.each<[string, () => Promise<string>, string]>([
    [
      "revoked",
      () => ended("state: revoked", "support", admin, () => revokeApiTokenByName(adminActor(), "state: revoked")),
      "This API token was revoked.",
    ],
    [
      "expired",
      () =>
        ended("state: expired", "support", admin, () =>
          db
            .update(apiTokens)
            .set({ expiresAt: new Date(Date.now() - 1000) })
            .where(eq(apiTokens.name, "state: expired")),
        ),
      "This API token has expired.",
    ],
    [
      "held by a disabled user",
      async () => {
        const user = await userOf("state.disabled", "support");
        return ended("state: disabled", "support", user, () =>
          db.update(consoleUsers).set({ disabled: true }).where(eq(consoleUsers.id, user.id)),
        );
      },
      "This API token is no longer valid.",
    ],
    [
      "of a role above its user's",
      async () => {
        const user = await userOf("state.below", "admin");
        return ended("state: below", "admin", user, () =>
          db.update(consoleUsers).set({ role: "support" }).where(eq(consoleUsers.id, user.id)),
        );
      },
      "This API token is no longer valid.",
    ],
    ["unknown (a guess)", async () => `tcapi_${"B".repeat(43)}`, "This API token is not valid."],
  ])("is refused at the next request when %s, 401 after a guess's wait", async (state, make, description) => {
    const secret = await make();
    const started = performance.now();
    const refused = await list(secret, `198.51.100.${10 + state.length}`);
    expect(performance.now() - started).toBeGreaterThanOrEqual(REFUSED_ANSWER_DELAY_MS - 5);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: "unauthorized", errorDescription: description });
  });
});

describe("revoking a token", () => {
  it("revokes by name in any case, answering the name, and records the admin who revoked it", async () => {
    await token(admin, "revoked by name", { role: "support" });
    expect(await revokeApiTokenByName(adminActor(), "REVOKED BY NAME")).toEqual({ ok: true, name: "revoked by name" });
    const [revoked] = await db
      .select({ revokedBy: apiTokens.revokedBy })
      .from(apiTokens)
      .where(eq(apiTokens.name, "revoked by name"));
    expect(revoked).toEqual({ revokedBy: admin.id });
  });

  it("refuses to revoke a token twice", async () => {
    await token(admin, "to revoke", { role: "support" });
    await revokeApiTokenByName(adminActor(), "to revoke");
    const [{ id }] = (await db.select({ id: apiTokens.id }).from(apiTokens).where(eq(apiTokens.name, "to revoke"))) as [
      { id: string },
    ];
    expect(await revokeApiToken(adminActor(), { id })).toEqual({
      ok: false,
      error: "The token to revoke was already revoked.",
    });
  });

  // The page revokes by id, its raw input parsed by lib/tokens.
  it.each([
    ["its name", (name: string) => ({ name })],
    ["a malformed id", (name: string) => ({ id: name })],
    ["nothing", () => null],
  ])("revokes nothing given %s, and the token goes on working", async (given, raw) => {
    const name = `standing, given ${given}`;
    const standing = await token(admin, name, { role: "support" });
    expect(await revokeApiToken(adminActor(), raw(name))).toEqual({ ok: false, error: "This token no longer exists." });
    expect(await status(standing)).toBe(200);
  });
});

describe("a token's scopes", () => {
  it("answers 403 on the data routes to a token without the api scope, naming it", async () => {
    const metricsOnly = await token(admin, "prometheus", { role: "support", scopes: ["metrics"] });
    const data = await list(metricsOnly);
    expect(data.status).toBe(403);
    expect(await data.json()).toEqual({ error: "forbidden", errorDescription: "This API token lacks the api scope." });
  });

  it("lets a token with the metrics scope read GET /api/metrics", async () => {
    const metrics = await token(admin, "prometheus: metrics", { role: "support", scopes: ["metrics"] });
    expect(await authenticateMetrics(get("/api/metrics", metrics))).toBeNull();
  });

  it("answers 403 on GET /api/metrics to a token without the metrics scope", async () => {
    const apiOnly = await token(admin, "api only", { role: "admin" });
    expect((await authenticateMetrics(get("/api/metrics", apiOnly)))?.status).toBe(403);
  });

  it("answers 401 on GET /api/metrics to a request without a token", async () => {
    expect((await authenticateMetrics(new Request("http://console.test/api/metrics")))?.status).toBe(401);
  });
});

describe("a token's uses", () => {
  /** A new operator's token (made from the CLI) used from each of `addresses` in turn; answers its row then. */
  async function usedFrom(name: string, addresses: string[]) {
    const secret = await token(null, name, { role: "admin" });
    for (const address of addresses) await list(secret, address);
    const [row] = await db.select().from(apiTokens).where(eq(apiTokens.name, name));
    return { secret, row: row! };
  }

  it("writes its last use and address at once, then not again within a minute from that address", async () => {
    const { secret, row: first } = await usedFrom("used again", ["203.0.113.1"]);
    expect(first.lastUsedAddress).toBe("203.0.113.1");
    await list(secret, "203.0.113.1");
    const [again] = await db.select().from(apiTokens).where(eq(apiTokens.name, "used again"));
    expect(again!.lastUsedAt).toEqual(first.lastUsedAt);
  });

  it("writes its last use at once from another address, and again from the first one", async () => {
    const { row } = await usedFrom("moving", ["203.0.113.1", "203.0.113.2", "203.0.113.1"]);
    expect(row.lastUsedAddress).toBe("203.0.113.1");
  });

  it("keeps each address it was used from once", async () => {
    const { row } = await usedFrom("addresses", ["203.0.113.1", "203.0.113.1", "203.0.113.2", "203.0.113.1"]);
    expect(
      await db
        .select({ address: apiTokenAddresses.address })
        .from(apiTokenAddresses)
        .where(eq(apiTokenAddresses.tokenId, row.id)),
    ).toHaveLength(2);
  });

  it("audits its creation and each new address once, never with its secret", async () => {
    const { secret } = await usedFrom("operator's", ["203.0.113.1", "203.0.113.1", "203.0.113.2", "203.0.113.1"]);
    const audit = await db.select().from(auditLog).where(eq(auditLog.target, "operator's")).orderBy(asc(auditLog.id));
    expect(audit.map((a) => [a.action, a.actorEmail, a.details])).toEqual([
      ["api_token.created", "cli", { role: "admin", scopes: ["api"], expiresAt: null }],
      ["api_token.used_from_new_address", null, { address: "203.0.113.1" }],
      ["api_token.used_from_new_address", null, { address: "203.0.113.2" }],
    ]);
    expect(JSON.stringify(await db.select().from(auditLog))).not.toContain(secret);
  });

  it("counts every check by outcome for GET /api/metrics", async () => {
    const checks = async () => {
      const { body } = await scrapeMetrics();
      const count = (outcome: string) =>
        Number(
          new RegExp(`^tenant_console_api_token_checks_total\\{outcome="${outcome}"\\} (\\d+)$`, "m").exec(body)?.[1] ??
            0,
        );
      return Object.fromEntries(["accepted", "unknown", "revoked", "missing_scope"].map((o) => [o, count(o)]));
    };
    const good = await token(admin, "counted", { role: "support" });
    const gone = await token(admin, "counted, revoked", { role: "support" });
    await revokeApiTokenByName(adminActor(), "counted, revoked");
    const before = await checks();
    await Promise.all([
      list(good),
      list(gone),
      list(`tcapi_${"C".repeat(43)}`, "198.51.100.9"),
      authenticateMetrics(get("/api/metrics", good)),
    ]);
    const after = await checks();
    expect(Object.fromEntries(Object.entries(after).map(([o, n]) => [o, n - before[o]!]))).toEqual({
      accepted: 1,
      unknown: 1,
      revoked: 1,
      missing_scope: 1,
    });
  });
});

describe("a user's tokens end with their access, for good", () => {
  const teamActor = adminActor;
  type Change = { undo?: (user: PublicUser) => Promise<unknown>; change: (user: PublicUser) => Promise<unknown> };
  const cases: Array<[string, ApiTokenRevocationReason, Change]> = [
    [
      "disabled on the team page",
      "user_disabled",
      {
        change: (u) => setDisabled(teamActor(), { userId: u.id, disabled: true }),
        undo: (u) => setDisabled(teamActor(), { userId: u.id, disabled: false }),
      },
    ],
    [
      "disabled with the CLI",
      "user_disabled",
      { change: (u) => setUserDisabled(u.email, true), undo: (u) => setUserDisabled(u.email, false) },
    ],
    [
      "signed out everywhere on the team page",
      "sessions_revoked",
      { change: (u) => revokeTeamSessions(teamActor(), { userId: u.id }) },
    ],
    ["signed out everywhere with the CLI", "sessions_revoked", { change: (u) => revokeSessions(u.email) }],
  ];

  // Concurrent: each case waits out its refused answers, on a user of its own.
  it.concurrent.each(cases)(
    "ends the user's tokens for good when they are %s",
    async (how, reason, { change, undo }) => {
      const user = await newUser({ email: `${reason}.${how.length}@example.com`, name: how, role: "admin" });
      const secrets = [
        await token(user, `${how}: admin`, { role: "admin" }),
        await token(user, `${how}: support`, { role: "support" }),
      ];
      expect(await Promise.all(secrets.map((secret) => status(secret)))).toEqual([200, 200]);
      await change(user);
      await undo?.(user);
      expect(await Promise.all(secrets.map((secret) => status(secret)))).toEqual([401, 401]);
      const tokens = (await listApiTokens()).filter((t) => t.user === user.email);
      expect(tokens.map((t) => [t.status, t.revokedReason])).toEqual([
        ["revoked", reason],
        ["revoked", reason],
      ]);
      const audits = await db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "api_token.revoked"), like(auditLog.target, `${how}:%`)));
      expect(audits.map((a) => a.details)).toEqual([{ reason }, { reason }]);
    },
  );

  it.concurrent.each([
    ["on the team page", (u: PublicUser, role: Role) => changeRole(teamActor(), { userId: u.id, role })],
    ["with the CLI", (u: PublicUser, role: Role) => setUserRole(u.email, role)],
  ])(
    "ends the tokens above the new role when a user is demoted %s, and promoting again revives none",
    async (how, setRole) => {
      const user = await newUser({ email: `demoted.${how.length}@example.com`, name: `Demoted ${how}`, role: "admin" });
      const [adminToken, supportToken] = [
        await token(user, `demoted ${how}: admin`, { role: "admin" }),
        await token(user, `demoted ${how}: support`, { role: "support" }),
      ];
      await setRole(user, "support");
      expect(await Promise.all([status(adminToken), status(supportToken)])).toEqual([401, 200]);
      await setRole(user, "admin");
      expect(await Promise.all([status(adminToken), status(supportToken)])).toEqual([401, 200]);
      const [revoked] = await db
        .select({ reason: apiTokens.revokedReason })
        .from(apiTokens)
        .where(eq(apiTokens.name, `demoted ${how}: admin`));
      expect(revoked).toEqual({ reason: "role_lowered" });
    },
  );

  it("the team page lists each member's working tokens", async () => {
    const user = await newUser({ email: "listed@example.com", name: "Listed", role: "support" });
    await token(user, "listed: working", { role: "support" });
    await token(user, "listed: revoked", { role: "support" });
    await revokeApiTokenByName({ id: admin.id, email: admin.email }, "listed: revoked");
    const member = (await listTeam()).find((m) => m.email === "listed@example.com");
    expect(member?.apiTokens).toEqual([{ name: "listed: working", role: "support" }]);
  });
});
