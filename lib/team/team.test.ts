import { and, eq } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";

import { consoleUsers, loginAttempts } from "@/lib/db/schema";
import { whileAuditInsertsFail } from "@/lib/testing/database";
import { scaled } from "@/lib/testing/timeouts";

import { hashPasswordLinkToken, PASSWORD_LINK_LIFETIME_MS } from "./password-link";
import { addTeamMember, changeRole, listTeam, revokeSessions, setDisabled, unlockMember } from "./team";
import { actorFor, audits, insertUser, teamFixture, tokenOf, user } from "./test-helpers";

/** The team (./team.ts): adding users; role, disable, revoke; the last enabled admin; lock-outs; the list. */
const fixture = teamFixture();

const enabledAdmins = () =>
  fixture.db
    .select()
    .from(consoleUsers)
    .where(and(eq(consoleUsers.role, "admin"), eq(consoleUsers.disabled, false)));

describe("adding a user", () => {
  it("creates them without a password and answers a one-time link valid 24 h, storing only its token's SHA-256", async () => {
    const actor = await actorFor("ada@example.com");
    const before = Date.now();
    const result = await addTeamMember(actor, { email: " Nia@Example.com ", name: " Nia New ", role: "support" });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const url = new URL(result.link.url);
    expect(`${url.origin}${url.pathname}`).toBe("http://127.0.0.1:3000/set-password");
    expect(url.search).toBe("");
    const token = tokenOf(result.link.url);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);

    const row = await user(result.id);
    expect(row).toMatchObject({
      email: "Nia@Example.com",
      name: "Nia New",
      role: "support",
      passwordHash: null,
      disabled: false,
    });
    expect(row.passwordSetupTokenHash).toBe(hashPasswordLinkToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    const lifetime = row.passwordSetupExpiresAt!.getTime() - before;
    expect(lifetime).toBeGreaterThanOrEqual(PASSWORD_LINK_LIFETIME_MS);
    expect(lifetime).toBeLessThan(PASSWORD_LINK_LIFETIME_MS + 10_000);

    const [record] = await audits("user.created");
    expect(record).toMatchObject({
      actorId: actor.id,
      actorEmail: "ada@example.com",
      target: "Nia@Example.com",
      outcome: "success",
    });
    expect(JSON.stringify(record)).not.toContain(token);

    const [listed] = (await listTeam()).filter((m) => m.id === result.id);
    expect(listed?.signIn).toEqual({
      password: false,
      ssoHost: null,
      linkExpiresAt: row.passwordSetupExpiresAt!.toISOString(),
    });
  });

  it("says on the email field that the address is taken, whatever its case, and adds nothing", async () => {
    const actor = await actorFor("ada@example.com");
    await insertUser({ email: "sam@example.com" });
    const result = await addTeamMember(actor, { email: "SAM@example.COM", name: "Sam Again", role: "admin" });
    expect(result).toEqual({ ok: false, field: "email", error: "A console user with this email already exists." });
    expect(await fixture.db.select().from(consoleUsers)).toHaveLength(2);
    expect(await audits("user.created")).toHaveLength(0);
  });

  it("names the field of bad input", async () => {
    const actor = await actorFor("ada@example.com");
    expect(await addTeamMember(actor, { email: "not-an-email", name: "X", role: "support" })).toEqual({
      ok: false,
      field: "email",
      error: "Enter a valid email address.",
    });
    expect(await addTeamMember(actor, { email: "x@example.com", name: "  ", role: "support" })).toEqual({
      ok: false,
      field: "name",
      error: "Enter a name.",
    });
    expect(await addTeamMember(actor, { email: "x@example.com", name: "X", role: "owner" as "admin" })).toMatchObject({
      ok: false,
      field: "role",
    });
  });

  it("keeps no user when the audit record cannot be written", async () => {
    const actor = await actorFor("ada@example.com");
    await expect(
      whileAuditInsertsFail(fixture.db, () =>
        addTeamMember(actor, { email: "x@example.com", name: "X", role: "support" }),
      ),
    ).rejects.toThrow(/insert into "audit_log"/);
    expect(await fixture.db.select().from(consoleUsers)).toHaveLength(1);
  });
});

describe("role, disable, revoke", () => {
  it("a role change ends the user's sessions and records from and to; the same role changes nothing", async () => {
    const actor = await actorFor("ada@example.com");
    const sam = await insertUser({ email: "sam@example.com" });
    expect(await changeRole(actor, { userId: sam.id, role: "admin" })).toEqual({ ok: true });
    expect(await user(sam.id)).toMatchObject({ role: "admin", sessionVersion: sam.sessionVersion + 1 });
    expect(await audits("user.role_changed")).toMatchObject([
      { actorId: actor.id, target: "sam@example.com", details: { from: "support", to: "admin" } },
    ]);
    expect(await changeRole(actor, { userId: sam.id, role: "admin" })).toEqual({ ok: true });
    expect((await user(sam.id)).sessionVersion).toBe(sam.sessionVersion + 1);
    expect(await audits("user.role_changed")).toHaveLength(1);
  });

  it("disable ends sessions, enable does not; both audited; nobody disables themselves", async () => {
    const actor = await actorFor("ada@example.com");
    const sam = await insertUser({ email: "sam@example.com" });
    expect(await setDisabled(actor, { userId: sam.id, disabled: true })).toEqual({ ok: true });
    expect(await user(sam.id)).toMatchObject({ disabled: true, sessionVersion: sam.sessionVersion + 1 });
    expect(await setDisabled(actor, { userId: sam.id, disabled: false })).toEqual({ ok: true });
    expect(await user(sam.id)).toMatchObject({ disabled: false, sessionVersion: sam.sessionVersion + 1 });
    expect((await audits("user.disabled")).map((r) => r.target)).toEqual(["sam@example.com"]);
    expect((await audits("user.enabled")).map((r) => r.target)).toEqual(["sam@example.com"]);

    await insertUser({ email: "bea@example.com", role: "admin" });
    expect(await setDisabled(actor, { userId: actor.id, disabled: true })).toEqual({
      ok: false,
      error: "You cannot disable your own account. Another admin can.",
    });
    expect((await user(actor.id)).disabled).toBe(false);
  });

  it("revoking sessions bumps the version and is audited", async () => {
    const actor = await actorFor("ada@example.com");
    const sam = await insertUser({ email: "sam@example.com" });
    expect(await revokeSessions(actor, { userId: sam.id })).toEqual({ ok: true });
    expect(await revokeSessions(actor, { userId: sam.id })).toEqual({ ok: true });
    expect((await user(sam.id)).sessionVersion).toBe(sam.sessionVersion + 2);
    expect(await audits("user.sessions_revoked")).toHaveLength(2);
  });

  it("an unknown user and a malformed id are said in words", async () => {
    const actor = await actorFor("ada@example.com");
    const missing = "00000000-0000-4000-8000-000000000000";
    for (const answer of [
      await revokeSessions(actor, { userId: missing }),
      await changeRole(actor, { userId: missing, role: "admin" }),
      await setDisabled(actor, { userId: missing, disabled: true }),
      await unlockMember(actor, { userId: missing }),
    ]) {
      expect(answer).toEqual({ ok: false, error: "This user no longer exists. Reload the page." });
    }
    expect(await revokeSessions(actor, { userId: "1 or 1=1" })).toEqual({
      ok: false,
      error: "That user does not exist.",
    });
  });

  it("a change and its audit record commit together", async () => {
    const actor = await actorFor("ada@example.com");
    const sam = await insertUser({ email: "sam@example.com" });
    await expect(
      whileAuditInsertsFail(fixture.db, () => changeRole(actor, { userId: sam.id, role: "admin" })),
    ).rejects.toThrow(/insert into "audit_log"/);
    await expect(whileAuditInsertsFail(fixture.db, () => revokeSessions(actor, { userId: sam.id }))).rejects.toThrow(
      /insert into "audit_log"/,
    );
    expect(await user(sam.id)).toMatchObject({ role: "support", sessionVersion: sam.sessionVersion });
  });
});

describe("the last enabled admin", () => {
  it("cannot be demoted, even by themselves; a disabled admin does not count", async () => {
    const ada = await actorFor("ada@example.com");
    await insertUser({ email: "old@example.com", role: "admin", disabled: true });
    const refusal = {
      ok: false,
      error: "ada is the last enabled admin. Make someone else an admin first, so that the console keeps one.",
    };
    expect(await changeRole(ada, { userId: ada.id, role: "support" })).toEqual(refusal);
    expect((await user(ada.id)).role).toBe("admin");
    expect(await audits("user.role_changed")).toHaveLength(0);
  });

  it("can step down once another admin is enabled, and cannot be disabled by another admin", async () => {
    const ada = await actorFor("ada@example.com");
    const bea = await actorFor("bea@example.com");
    expect(await changeRole(ada, { userId: ada.id, role: "support" })).toEqual({ ok: true });
    expect(await setDisabled(ada, { userId: bea.id, disabled: true })).toEqual({
      ok: false,
      error: "Only admin users can do this.",
    });
    await fixture.db.update(consoleUsers).set({ role: "admin" }).where(eq(consoleUsers.id, ada.id));
    expect(await setDisabled(ada, { userId: bea.id, disabled: true })).toEqual({ ok: true });
    expect(await setDisabled(bea, { userId: ada.id, disabled: true })).toEqual({
      ok: false,
      error: "Only admin users can do this.",
    });
    expect((await enabledAdmins()).map((u) => u.email)).toEqual(["ada@example.com"]);
  });

  it("two admins demoting each other at once leave one admin", async () => {
    const ada = await actorFor("ada@example.com");
    const bea = await actorFor("bea@example.com");
    const results = await Promise.all([
      changeRole(ada, { userId: bea.id, role: "support" }),
      changeRole(bea, { userId: ada.id, role: "support" }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(await enabledAdmins()).toHaveLength(1);
    expect(await audits("user.role_changed")).toHaveLength(1);
  });

  it("two admins disabling and demoting each other at once leave one admin", async () => {
    const ada = await actorFor("ada@example.com");
    const bea = await actorFor("bea@example.com");
    const results = await Promise.all([
      setDisabled(ada, { userId: bea.id, disabled: true }),
      changeRole(bea, { userId: ada.id, role: "support" }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(await enabledAdmins()).toHaveLength(1);
  });
});

describe("locked out", () => {
  it("is shown from the failed attempts, and unlocking clears them with an audit record", async () => {
    const actor = await actorFor("ada@example.com");
    const lou = await insertUser({ email: "Lou@Example.com", name: "Lou" });
    const now = new Date();
    await fixture.db.insert(loginAttempts).values(
      Array.from({ length: 5 }, (_, i) => ({
        email: "lou@example.com",
        ip: "203.0.113.9",
        succeeded: false,
        attemptedAt: new Date(now.getTime() - i * 1000),
      })),
    );
    const lockedOut = async () => (await listTeam()).find((m) => m.id === lou.id)?.lockedOut;
    expect(await lockedOut()).toBe(true);
    expect((await listTeam()).find((m) => m.id === actor.id)?.lockedOut).toBe(false);

    expect(await unlockMember(actor, { userId: lou.id })).toEqual({ ok: true });
    expect(await lockedOut()).toBe(false);
    expect(await fixture.db.select().from(loginAttempts)).toHaveLength(0);
    expect(await audits("user.unlocked")).toMatchObject([
      { actorId: actor.id, target: "Lou@Example.com", details: { clearedAttempts: 5 } },
    ]);
  });
});

describe("the list", () => {
  it("says how each user signs in, and never carries a hash", async () => {
    await insertUser({ email: "pat@example.com", name: "Pat", lastSignInAt: new Date("2026-01-02T03:04:05Z") });
    await insertUser({
      email: "sid@example.com",
      name: "sid",
      passwordHash: null,
      oidcIssuer: "https://idp.example.com:8443/realms/x",
      oidcSubject: "s1",
    });
    await insertUser({ email: "bo@example.com", name: "Bo", oidcIssuer: "https://idp.example.com", oidcSubject: "s2" });
    const team = await listTeam();
    expect(team.map((m) => m.name)).toEqual(["Bo", "Pat", "sid"]);
    expect(team.map((m) => m.signIn)).toEqual([
      { password: true, ssoHost: "idp.example.com", linkExpiresAt: null },
      { password: true, ssoHost: null, linkExpiresAt: null },
      { password: false, ssoHost: "idp.example.com:8443", linkExpiresAt: null },
    ]);
    expect(team[1]?.lastSignInAt).toBe("2026-01-02T03:04:05.000Z");
    expect(JSON.stringify(team)).not.toContain("argon2");
  });
});

describe("locking", () => {
  // PGlite has one connection: another session holding a lock needs PostgreSQL.
  it.skipIf(!process.env.DATABASE_URL)(
    "a change under the last-admin guard does not wait for a foreign key check on an admin's row",
    async () => {
      const actor = await actorFor("lead@example.com");
      const member = await insertUser({ email: "member@example.com", role: "admin" });
      const other = new pg.Client({ connectionString: fixture.url });
      await other.connect();
      try {
        await other.query("begin");
        // What another change's foreign key check takes, writing a row that names the actor (a revoked token's
        // revoked_by): with FOR UPDATE, the guard waited for it, and the two changes could deadlock.
        await other.query("select 1 from console_users where id = $1 for key share", [actor.id]);
        const disabling = setDisabled(actor, { userId: member.id, disabled: true });
        const first = await Promise.race([
          disabling.then(() => "disabled"),
          new Promise((resolve) => setTimeout(() => resolve("waited"), scaled(3_000))),
        ]);
        expect(first).toBe("disabled");
        expect(await disabling).toEqual({ ok: true });
      } finally {
        await other.query("rollback");
        await other.end();
      }
      expect((await user(member.id)).disabled).toBe(true);
    },
  );
});
