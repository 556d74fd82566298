import { and, desc, eq } from "drizzle-orm";
import type { Account } from "next-auth";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Database } from "@/lib/db";
import { auditLog, consoleUsers } from "@/lib/db/schema";
import { apiTokens } from "@/lib/db/tokens-schema";
import { linkNotUsable, newPasswordLink, setPasswordWithLink } from "@/lib/team/password-link";
import { setUpTestDatabase, whileAuditInsertsFail } from "@/lib/testing/database";
import { createApiToken } from "@/lib/tokens/tokens";

import { admitSsoSignIn, ssoProviders, ssoSessionUser } from "./sso";
import type { CookieHeaderReader } from "./sso-link";
import { ssoRefusalText } from "./sso-messages";
import { createUser, setUserDisabled } from "./users";

const ISSUER = "https://login.example.com";
const account: Account = { provider: "oidc", type: "oauth", providerAccountId: "x" };
const PASSWORD = "correct-horse-battery";

function claims(overrides: Record<string, unknown> = {}) {
  return {
    iss: ISSUER,
    sub: "sub-ada",
    email: "ada@example.com",
    email_verified: true,
    name: "Ada",
    groups: ["console-admins"],
    ...overrides,
  };
}

/** The request brings no console session. */
const noSession: CookieHeaderReader = async () => null;

/** The request brings the console session of `user` (as next-auth issues it at a password sign-in). */
function sessionOf(user: { id: string; sessionVersion: number }): CookieHeaderReader {
  return async () => {
    const token = await encode({
      token: { uid: user.id, sessionVersion: user.sessionVersion },
      secret: process.env.NEXTAUTH_SECRET!,
    });
    return `other=1; next-auth.session-token=${token}`;
  };
}

beforeAll(() => {
  Object.assign(process.env, {
    CONSOLE_OIDC_ISSUER: ISSUER,
    CONSOLE_OIDC_CLIENT_ID: "console",
    CONSOLE_OIDC_CLIENT_SECRET: "client-secret",
    CONSOLE_OIDC_NAME: "Example ID",
    CONSOLE_OIDC_ADMIN_GROUPS: "console-admins",
    CONSOLE_OIDC_SUPPORT_GROUPS: "console-support",
  });
});

/** Each describe block has a database of its own (setUpDatabase), read through these. */
let db: Database;

function setUpDatabase() {
  let tearDown: () => Promise<void>;
  beforeAll(async () => {
    ({ db, tearDown } = await setUpTestDatabase());
  });
  afterAll(() => tearDown());
}

const userBySubject = async (subject: string) =>
  (
    await db
      .select()
      .from(consoleUsers)
      .where(and(eq(consoleUsers.oidcIssuer, ISSUER), eq(consoleUsers.oidcSubject, subject)))
  )[0];
const userByEmail = async (email: string) =>
  (await db.select().from(consoleUsers).where(eq(consoleUsers.email, email)))[0]!;
const lastAudit = async () => (await db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1))[0];

describe("single sign-on against the database", () => {
  setUpDatabase();
  beforeAll(async () => {
    // The bootstrap admin: so that a single sign-on admin is never the last one here.
    await createUser({ email: "root@example.com", name: "Root", role: "admin", password: PASSWORD });
  });

  it("registers one provider from the settings: discovery, PKCE and state, the ID token, a timeout", () => {
    expect(ssoProviders()).toEqual([
      expect.objectContaining({
        id: "oidc",
        name: "Example ID",
        type: "oauth",
        wellKnown: `${ISSUER}/.well-known/openid-configuration`,
        checks: ["pkce", "state"],
        idToken: true,
        authorization: { params: { scope: "openid email profile" } },
        httpOptions: { timeout: 3000 },
      }),
    ]);
  });

  it("creates the console user on a first sign-in, audited in the same transaction", async () => {
    const before = new Date();
    expect(
      await admitSsoSignIn(account, claims({ sub: "sub-new", email: "New.Person@Example.com", name: "New Person" })),
    ).toBe(true);
    const user = await userBySubject("sub-new");
    expect(user).toMatchObject({
      email: "New.Person@Example.com",
      name: "New Person",
      role: "admin",
      passwordHash: null,
      disabled: false,
    });
    expect(user!.lastSignInAt!.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    expect(await lastAudit()).toMatchObject({
      action: "sign_in.sso",
      outcome: "success",
      actorId: user!.id,
      actorEmail: "New.Person@Example.com",
      details: { role: "admin", created: true, linked: false },
    });
    expect(await ssoSessionUser(account, claims({ sub: "sub-new" }))).toEqual({
      id: user!.id,
      email: "New.Person@Example.com",
      name: "New Person",
      role: "admin",
      sessionVersion: 1,
    });
  });

  it("updates the same person's name, email and role from the next sign-in; the new role ends their other sessions", async () => {
    expect(
      await admitSsoSignIn(
        account,
        claims({ sub: "sub-new", email: "new@example.com", name: "Renamed", groups: ["console-support"] }),
      ),
    ).toBe(true);
    expect(await userBySubject("sub-new")).toMatchObject({
      email: "new@example.com",
      name: "Renamed",
      role: "support",
      sessionVersion: 2,
    });
    expect((await lastAudit())!.details).toEqual({
      role: "support",
      created: false,
      linked: false,
      previousRole: "admin",
    });
    // The same role again: the sessions stay.
    expect(
      await admitSsoSignIn(
        account,
        claims({ sub: "sub-new", email: "new@example.com", name: "Renamed", groups: ["console-support"] }),
      ),
    ).toBe(true);
    expect(await userBySubject("sub-new")).toMatchObject({ role: "support", sessionVersion: 2 });
    expect(await db.select().from(consoleUsers).where(eq(consoleUsers.oidcSubject, "sub-new"))).toHaveLength(1);
  });

  it("a lower role from the groups revokes the person's tokens above it, for good", async () => {
    expect(
      await admitSsoSignIn(
        account,
        claims({ sub: "sub-tokens", email: "tokens@example.com", groups: ["console-admins"] }),
      ),
    ).toBe(true);
    const person = (await userBySubject("sub-tokens"))!;
    const creator = { actor: { id: person.id, email: person.email }, user: { id: person.id, role: person.role } };
    for (const role of ["admin", "support"] as const)
      await createApiToken(creator, { name: `sso ${role}`, role, scopes: ["api"] });
    expect(
      await admitSsoSignIn(
        account,
        claims({ sub: "sub-tokens", email: "tokens@example.com", groups: ["console-support"] }),
      ),
    ).toBe(true);
    expect(
      await admitSsoSignIn(
        account,
        claims({ sub: "sub-tokens", email: "tokens@example.com", groups: ["console-admins"] }),
      ),
    ).toBe(true);
    const tokens = await db
      .select({ name: apiTokens.name, reason: apiTokens.revokedReason })
      .from(apiTokens)
      .where(eq(apiTokens.userId, person.id))
      .orderBy(apiTokens.name);
    expect(tokens).toEqual([
      { name: "sso admin", reason: "role_lowered" },
      { name: "sso support", reason: null },
    ]);
  });

  it("links a password user with the same email (any case) once their password session confirms it, keeping the password", async () => {
    await createUser({ email: "Pat@Example.com", name: "Pat", role: "support", password: PASSWORD });
    const pat = await userByEmail("Pat@Example.com");
    expect(
      await admitSsoSignIn(account, claims({ sub: "sub-pat", email: "pat@example.com", name: "Pat P." }), noSession),
    ).toBe("/sign-in/refused?reason=link_requires_password");
    expect(
      await admitSsoSignIn(
        account,
        claims({ sub: "sub-pat", email: "pat@example.com", name: "Pat P." }),
        sessionOf(pat),
      ),
    ).toBe(true);
    const user = await userBySubject("sub-pat");
    expect(user).toMatchObject({
      id: pat.id,
      email: "pat@example.com",
      name: "Pat P.",
      role: "admin",
      sessionVersion: pat.sessionVersion + 1,
    });
    expect(user!.passwordHash).toBe(pat.passwordHash);
    expect((await lastAudit())!.details).toEqual({
      role: "admin",
      created: false,
      linked: true,
      previousRole: "support",
    });
  });

  it("refuses someone with no role, creates nothing, and audits the reason without the claims", async () => {
    expect(
      await admitSsoSignIn(account, claims({ sub: "sub-nobody", email: "nobody@example.com", groups: ["staff"] })),
    ).toBe("/sign-in/refused?reason=no_role");
    expect(await userBySubject("sub-nobody")).toBeUndefined();
    const audit = await lastAudit();
    expect(audit).toMatchObject({
      action: "sign_in.sso_refused",
      outcome: "denied",
      actorId: null,
      actorEmail: "nobody@example.com",
      details: { reason: "no_role" },
    });
    expect(JSON.stringify(audit)).not.toContain("staff");
  });

  it("refuses an unverified email", async () => {
    expect(await admitSsoSignIn(account, claims({ sub: "sub-unverified", email_verified: false }))).toBe(
      "/sign-in/refused?reason=email_unverified",
    );
    expect(await userBySubject("sub-unverified")).toBeUndefined();
  });

  it("keeps a disabled user out, whether matched by identity or by email, and changes nothing", async () => {
    expect(
      await admitSsoSignIn(
        account,
        claims({ sub: "sub-leaver", email: "leaver@example.com", groups: ["console-support"] }),
      ),
    ).toBe(true);
    await setUserDisabled("leaver@example.com", true);
    expect(
      await admitSsoSignIn(account, claims({ sub: "sub-leaver", email: "leaver@example.com", name: "Changed" })),
    ).toBe("/sign-in/refused?reason=disabled");
    const leaver = await userBySubject("sub-leaver");
    expect(leaver).toMatchObject({ name: "Ada", role: "support", disabled: true });
    expect(await lastAudit()).toMatchObject({
      action: "sign_in.sso_refused",
      actorId: leaver!.id,
      details: { reason: "disabled" },
    });
    await expect(ssoSessionUser(account, claims({ sub: "sub-leaver" }))).rejects.toThrow(/not an enabled console user/);

    await createUser({ email: "dora@example.com", name: "Dora", role: "support", password: "correct-horse-battery" });
    await setUserDisabled("dora@example.com", true);
    expect(await admitSsoSignIn(account, claims({ sub: "sub-dora", email: "dora@example.com" }))).toBe(
      "/sign-in/refused?reason=disabled",
    );
    expect(await userBySubject("sub-dora")).toBeUndefined();
  });

  it("refuses an email that belongs to a user linked to another identity", async () => {
    expect(await admitSsoSignIn(account, claims({ sub: "sub-other", email: "pat@example.com" }))).toBe(
      "/sign-in/refused?reason=account_conflict",
    );
    expect(await admitSsoSignIn(account, claims({ sub: "sub-new", email: "PAT@example.com" }))).toBe(
      "/sign-in/refused?reason=account_conflict",
    );
    expect(await userBySubject("sub-new")).toMatchObject({ email: "new@example.com" });
  });

  it("keeps nothing when the audit record cannot be written, and sends the person to a clear error", async () => {
    const result = await whileAuditInsertsFail(db, () =>
      admitSsoSignIn(account, claims({ sub: "sub-unaudited", email: "unaudited@example.com" })),
    );
    expect(result).toBe("/sign-in?error=Callback");
    expect(await userBySubject("sub-unaudited")).toBeUndefined();
  });

  it("sends claims without a subject to the error page rather than throwing", async () => {
    expect(await admitSsoSignIn(account, { email: "x@example.com" })).toBe("/sign-in?error=Callback");
    expect(await admitSsoSignIn({ ...account, provider: "github" }, claims())).toBe("/sign-in?error=Callback");
  });

  describe("an ID token from another issuer", () => {
    it("is refused, creates nothing, and is audited without anything the token claims", async () => {
      const usersBefore = await db.select().from(consoleUsers);
      for (const issuer of [
        "https://login.example.com/other-tenant",
        "https://LOGIN.example.com",
        "https://login.example.com.evil.test",
      ]) {
        expect(
          await admitSsoSignIn(
            account,
            claims({ iss: issuer, sub: "sub-foreign", email: "foreign@example.com" }),
            noSession,
          ),
        ).toBe("/sign-in/refused?reason=issuer_mismatch");
        expect(await lastAudit()).toMatchObject({
          action: "sign_in.sso_refused",
          outcome: "denied",
          actorId: null,
          actorEmail: null,
          details: { reason: "issuer_mismatch" },
        });
      }
      expect(await db.select().from(consoleUsers)).toEqual(usersBefore);
      expect(JSON.stringify(await db.select().from(auditLog))).not.toContain("foreign");
    });
  });
});

describe("linking to an existing console user, and the last-admin guard", () => {
  setUpDatabase();
  const BOSS = "boss@example.com";
  const asBoss = (groups: string[]) => claims({ sub: "sub-boss", email: BOSS, name: "Boss", groups });

  beforeAll(async () => {
    // The console's only admin, with a password: the bootstrap admin.
    await createUser({ email: BOSS, name: "Boss", role: "admin", password: PASSWORD });
  });

  it("refuses an identity with the email of an admin who has a password: the admin stays as they were, the refusal is audited", async () => {
    const before = await userByEmail(BOSS);
    const stranger = { id: crypto.randomUUID(), sessionVersion: 1 };
    const endedSession = { id: before.id, sessionVersion: before.sessionVersion - 1 };
    for (const session of [
      noSession,
      sessionOf(stranger),
      sessionOf(endedSession),
      async () => "next-auth.session-token=forged",
    ]) {
      for (const groups of [["console-support"], ["console-admins"]]) {
        expect(
          await admitSsoSignIn(account, claims({ sub: "sub-impostor", email: "Boss@Example.com", groups }), session),
        ).toBe("/sign-in/refused?reason=link_requires_password");
      }
    }
    expect(await userByEmail(BOSS)).toEqual(before);
    expect(await userBySubject("sub-impostor")).toBeUndefined();
    expect(await lastAudit()).toMatchObject({
      action: "sign_in.sso_refused",
      outcome: "denied",
      actorId: before.id,
      details: { reason: "link_requires_password" },
    });
    expect(ssoRefusalText("link_requires_password", "Example ID").whatToDo).toContain(
      "Sign in with its password, then use Sign in with Example ID to link it.",
    );
  });

  it("refuses even a confirmed link when the groups would demote the last admin, and leaves them as they were", async () => {
    const before = await userByEmail(BOSS);
    expect(await admitSsoSignIn(account, asBoss(["console-support"]), sessionOf(before))).toBe(
      "/sign-in/refused?reason=last_admin",
    );
    expect(await userByEmail(BOSS)).toEqual(before);
    expect(await lastAudit()).toMatchObject({
      action: "sign_in.sso_refused",
      actorId: before.id,
      details: { reason: "last_admin" },
    });
  });

  it("links the admin once they are signed in with their password when they start single sign-on", async () => {
    const before = await userByEmail(BOSS);
    expect(await admitSsoSignIn(account, asBoss(["console-admins"]), sessionOf(before))).toBe(true);
    expect(await userBySubject("sub-boss")).toMatchObject({
      id: before.id,
      role: "admin",
      passwordHash: before.passwordHash,
      sessionVersion: before.sessionVersion,
    });
    expect(await lastAudit()).toMatchObject({
      action: "sign_in.sso",
      actorId: before.id,
      details: { role: "admin", created: false, linked: true },
    });
  });

  it("refuses a later sign-in in which the provider demotes the last enabled admin", async () => {
    const before = await userByEmail(BOSS);
    expect(await admitSsoSignIn(account, asBoss(["console-support"]), noSession)).toBe(
      "/sign-in/refused?reason=last_admin",
    );
    expect(await userByEmail(BOSS)).toEqual(before);
    expect(ssoRefusalText("last_admin", "Example ID").title).toBe(
      "Signing you in would leave the console without an admin",
    );
  });

  it("lets the provider demote an admin while another enabled admin remains, ending the demoted admin's sessions", async () => {
    await createUser({ email: "deputy@example.com", name: "Deputy", role: "admin", password: PASSWORD });
    const before = await userByEmail(BOSS);
    expect(await admitSsoSignIn(account, asBoss(["console-support"]), noSession)).toBe(true);
    expect(await userByEmail(BOSS)).toMatchObject({ role: "support", sessionVersion: before.sessionVersion + 1 });
    expect((await lastAudit())!.details).toEqual({
      role: "support",
      created: false,
      linked: false,
      previousRole: "admin",
    });
    expect(await ssoSessionUser(account, asBoss(["console-support"]))).toMatchObject({
      role: "support",
      sessionVersion: before.sessionVersion + 1,
    });
  });

  it("links a non-admin without a password by itself, and voids their pending set-password link", async () => {
    const { stored, link } = newPasswordLink();
    await db.insert(consoleUsers).values({ email: "newbie@example.com", name: "Newbie", role: "support", ...stored });
    expect(
      await admitSsoSignIn(
        account,
        claims({ sub: "sub-newbie", email: "newbie@example.com", groups: ["console-support"] }),
        noSession,
      ),
    ).toBe(true);
    expect(await userBySubject("sub-newbie")).toMatchObject({
      email: "newbie@example.com",
      passwordHash: null,
      passwordSetupTokenHash: null,
      passwordSetupExpiresAt: null,
    });
    expect((await lastAudit())!.details).toEqual({ role: "support", created: false, linked: true });
    const token = link.url.slice(link.url.indexOf("#") + 1);
    expect(await setPasswordWithLink({ token, password: PASSWORD, confirmation: PASSWORD })).toEqual({
      ok: false,
      error: linkNotUsable,
    });
  });

  it("does not link an invited admin who has no password yet by themselves", async () => {
    await db
      .insert(consoleUsers)
      .values({ email: "invited@example.com", name: "Invited", role: "admin", ...newPasswordLink().stored });
    expect(await admitSsoSignIn(account, claims({ sub: "sub-invited", email: "invited@example.com" }), noSession)).toBe(
      "/sign-in/refused?reason=link_requires_password",
    );
    expect(await userByEmail("invited@example.com")).toMatchObject({
      oidcIssuer: null,
      passwordSetupTokenHash: expect.any(String),
    });
  });
});
