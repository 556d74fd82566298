import { and, asc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Database } from "@/lib/db";
import { auditLog, webhookEvents } from "@/lib/db/schema";
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
import { createUser, revokeSessions, setUserDisabled, setUserRole, type PublicUser } from "./users";

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
  admin = await createUser({
    email: "admin@example.com",
    name: "Admin",
    role: "admin",
    password: "long-enough-password",
  });
  support = await createUser({
    email: "support@example.com",
    name: "Support",
    role: "support",
    password: "long-enough-password",
  });
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

describe("API tokens on the /api routes", () => {
  it("a support token reads the log and its export masked, and gets 403 on an admin-only route", async () => {
    const secret = await token(support, "support script", { role: "support" });
    expect(secret).toMatch(/^tcapi_[A-Za-z0-9_-]{43}$/);
    const list = await answer(await handleListEvents(get("/api/webhook-events", secret)));
    expect(list.status).toBe(200);
    expect(list.body).toContain("evt-1");
    expect(list.body).not.toContain("alice@example.org");
    const exported = await answer(await handleExportEvents(get("/api/webhook-events/export?format=csv", secret)));
    expect(exported.status).toBe(200);
    expect(exported.body).toContain("evt-1");
    expect(exported.body).not.toContain("alice@example.org");
    const replay = await handleGetReplay(get(`/api/replays/${crypto.randomUUID()}`, secret), crypto.randomUUID());
    expect(replay.status).toBe(403);
    expect(await replay.json()).toMatchObject({ error: "forbidden" });
  });

  it("an admin token gets what an admin session gets: unmasked events and replays", async () => {
    const secret = await token(admin, "admin script", { role: "admin" });
    const event = await answer(await handleGetEvent(get(`/api/webhook-events/${eventId}`, secret), String(eventId)));
    expect(event.status).toBe(200);
    expect(event.body).toContain("alice@example.org");
    const replay = await handleGetReplay(get("/api/replays/x", secret), crypto.randomUUID());
    expect(replay.status).toBe(404);
    // An admin may make a support token, which then reads as support does.
    const supportSecret = await token(admin, "admin's support script", { role: "support" });
    expect((await answer(await handleListEvents(get("/api/webhook-events", supportSecret)))).body).not.toContain(
      "alice@example.org",
    );
  });

  it("a bad token is 401 even beside a session cookie, and the answer never echoes it", async () => {
    const guess = `tcapi_${"A".repeat(43)}`;
    const response = await handleListEvents(
      get("/api/webhook-events", guess, "198.51.100.8", { cookie: "next-auth.session-token=whatever" }),
    );
    expect(response.status).toBe(401);
    const body = await response.text();
    expect(JSON.parse(body)).toEqual({ error: "unauthorized", errorDescription: "This API token is not valid." });
    expect(body).not.toContain(guess);
    const empty = await handleListEvents(
      new Request("http://console.test/api/webhook-events", { headers: { authorization: "Bearer " } }),
    );
    expect(await empty.json()).toEqual({
      error: "unauthorized",
      errorDescription: "Send an API token as: Authorization: Bearer <token>.",
    });
  });

  it("stops at once when revoked or expired, and a dead token's answer waits as a guess's does", async () => {
    const list = async (secret: string) =>
      (await answer(await handleListEvents(get("/api/webhook-events", secret)))).status;
    const revoked = await token(admin, "to revoke", { role: "support" });
    expect(await list(revoked)).toBe(200);
    expect(await revokeApiTokenByName({ id: admin.id, email: admin.email }, "TO REVOKE")).toEqual({
      ok: true,
      name: "to revoke",
    });
    const started = performance.now();
    const refused = await handleListEvents(get("/api/webhook-events", revoked));
    expect(performance.now() - started).toBeGreaterThanOrEqual(REFUSED_ANSWER_DELAY_MS - 5);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({
      error: "unauthorized",
      errorDescription: "This API token was revoked.",
    });
    // The page revokes by id, its raw input parsed by lib/tokens: a name, a malformed id or nothing revokes nothing.
    const actor = { id: admin.id, email: admin.email };
    const [{ id: revokedId }] = (await db
      .select({ id: apiTokens.id })
      .from(apiTokens)
      .where(eq(apiTokens.name, "to revoke"))) as [{ id: string }];
    expect(await revokeApiToken(actor, { id: revokedId })).toEqual({
      ok: false,
      error: "The token to revoke was already revoked.",
    });
    const standing = await token(admin, "standing", { role: "support" });
    for (const raw of [{ name: "standing" }, { id: "standing" }, null]) {
      expect(await revokeApiToken(actor, raw)).toEqual({ ok: false, error: "This token no longer exists." });
    }
    expect(await list(standing)).toBe(200);

    const expiring = await token(admin, "expiring", { role: "support", expiresInDays: 1 });
    expect(await list(expiring)).toBe(200);
    await db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.name, "expiring"));
    expect(await list(expiring)).toBe(401);
  });

  it("refuses a role above its user's", async () => {
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

  it("needs the api scope on the data routes and the metrics scope on metrics", async () => {
    const metricsOnly = await token(admin, "prometheus", { role: "support", scopes: ["metrics"] });
    const data = await handleListEvents(get("/api/webhook-events", metricsOnly));
    expect(data.status).toBe(403);
    expect(await data.json()).toEqual({ error: "forbidden", errorDescription: "This API token lacks the api scope." });
    expect(await authenticateMetrics(get("/api/metrics", metricsOnly))).toBeNull();
    const apiOnly = await token(admin, "api only", { role: "admin" });
    expect((await authenticateMetrics(get("/api/metrics", apiOnly)))?.status).toBe(403);
    expect((await authenticateMetrics(new Request("http://console.test/api/metrics")))?.status).toBe(401);
  });

  it("writes its last use at most once a minute from one address, and audits each new address once", async () => {
    const secret = await token(null, "operator's", { role: "admin" });
    const lastUse = async () => (await db.select().from(apiTokens).where(eq(apiTokens.name, "operator's")))[0]!;
    await handleListEvents(get("/api/webhook-events", secret, "203.0.113.1"));
    const first = await lastUse();
    expect(first.lastUsedAddress).toBe("203.0.113.1");
    await handleListEvents(get("/api/webhook-events", secret, "203.0.113.1"));
    expect((await lastUse()).lastUsedAt).toEqual(first.lastUsedAt);
    await handleListEvents(get("/api/webhook-events", secret, "203.0.113.2"));
    await handleListEvents(get("/api/webhook-events", secret, "203.0.113.1"));
    expect((await lastUse()).lastUsedAddress).toBe("203.0.113.1");
    expect(
      await db
        .select({ address: apiTokenAddresses.address })
        .from(apiTokenAddresses)
        .where(eq(apiTokenAddresses.tokenId, first.id)),
    ).toHaveLength(2);

    const audit = await db.select().from(auditLog).where(eq(auditLog.target, "operator's")).orderBy(asc(auditLog.id));
    expect(audit.map((a) => [a.action, a.actorEmail, a.details])).toEqual([
      ["api_token.created", "cli", { role: "admin", scopes: ["api"], expiresAt: null }],
      ["api_token.used_from_new_address", null, { address: "203.0.113.1" }],
      ["api_token.used_from_new_address", null, { address: "203.0.113.2" }],
    ]);
    expect(JSON.stringify(await db.select().from(auditLog))).not.toContain(secret);
    const [revokedBy] = await db
      .select({ revokedBy: apiTokens.revokedBy })
      .from(apiTokens)
      .where(eq(apiTokens.name, "to revoke"));
    expect(revokedBy).toEqual({ revokedBy: admin.id });
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
    await revokeApiTokenByName({ id: admin.id, email: admin.email }, "counted, revoked");
    const before = await checks();
    await handleListEvents(get("/api/webhook-events", good));
    await handleListEvents(get("/api/webhook-events", gone));
    await handleListEvents(get("/api/webhook-events", `tcapi_${"C".repeat(43)}`, "198.51.100.9"));
    await authenticateMetrics(get("/api/metrics", good));
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
  const status = async (secret: string) => (await handleListEvents(get("/api/webhook-events", secret))).status;
  const teamActor = () => ({ id: admin.id, email: admin.email });
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

  it.each(cases)("when %s", async (how, reason, { change, undo }) => {
    const user = await createUser({
      email: `${reason}.${how.length}@example.com`,
      name: how,
      role: "admin",
      password: "long-enough-password",
    });
    const secrets = [
      await token(user, `${how}: admin`, { role: "admin" }),
      await token(user, `${how}: support`, { role: "support" }),
    ];
    expect(await Promise.all(secrets.map(status))).toEqual([200, 200]);
    await change(user);
    await undo?.(user);
    expect(await Promise.all(secrets.map(status))).toEqual([401, 401]);
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
  });

  it.each([
    ["on the team page", (u: PublicUser, role: Role) => changeRole(teamActor(), { userId: u.id, role })],
    ["with the CLI", (u: PublicUser, role: Role) => setUserRole(u.email, role)],
  ])("when demoted %s: the tokens above the new role end, and promoting again revives none", async (how, setRole) => {
    const user = await createUser({
      email: `demoted.${how.length}@example.com`,
      name: `Demoted ${how}`,
      role: "admin",
      password: "long-enough-password",
    });
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
  });

  it("the team page lists each member's working tokens", async () => {
    const user = await createUser({
      email: "listed@example.com",
      name: "Listed",
      role: "support",
      password: "long-enough-password",
    });
    await token(user, "listed: working", { role: "support" });
    await token(user, "listed: revoked", { role: "support" });
    await revokeApiTokenByName({ id: admin.id, email: admin.email }, "listed: revoked");
    const member = (await listTeam()).find((m) => m.email === "listed@example.com");
    expect(member?.apiTokens).toEqual([{ name: "listed: working", role: "support" }]);
  });
});
