import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, desc, eq } from "drizzle-orm";
import type { Account } from "next-auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { auditLog, consoleUsers } from "@/lib/db/schema";
import { setUpTestDatabase, whileAuditInsertsFail } from "@/lib/testing/database";
import type { OidcConfig } from "./oidc-config";
import { judgeSsoClaims, roleForGroups } from "./sso-claims";
import { admitSsoSignIn, discoveryAnswers, ssoProviders, ssoSessionUser } from "./sso";
import { createUser, setUserDisabled } from "./users";

const ISSUER = "https://login.example.com";

const config: OidcConfig = {
  issuer: ISSUER,
  wellKnownUrl: `${ISSUER}/.well-known/openid-configuration`,
  clientId: "console",
  clientSecret: "client-secret",
  name: "Example ID",
  groupsClaim: "groups",
  adminGroups: ["console-admins"],
  supportGroups: ["console-support", "helpdesk"],
  allowedDomains: [],
};

function claims(overrides: Record<string, unknown> = {}) {
  return { iss: ISSUER, sub: "sub-ada", email: "ada@example.com", email_verified: true, name: "Ada", groups: ["console-admins"], ...overrides };
}

describe("judgeSsoClaims", () => {
  it("admits a verified email in an admin group as admin, with its identity", () => {
    expect(judgeSsoClaims(claims(), config)).toEqual({ ok: true, issuer: ISSUER, subject: "sub-ada", email: "ada@example.com", name: "Ada", role: "admin" });
  });

  it("requires email_verified to be exactly true", () => {
    for (const emailVerified of [false, "true", 1, undefined]) {
      expect(judgeSsoClaims(claims({ email_verified: emailVerified }), config)).toMatchObject({ ok: false, reason: "email_unverified" });
    }
    expect(judgeSsoClaims(claims({ email: undefined }), config)).toMatchObject({ ok: false, reason: "email_unverified", email: null });
    expect(judgeSsoClaims(claims({ email: "not-an-email" }), config)).toMatchObject({ ok: false, reason: "email_unverified" });
  });

  it("refuses an email outside the allowed domains (case-insensitive, no subdomains)", () => {
    const limited = { ...config, allowedDomains: ["example.com"] };
    expect(judgeSsoClaims(claims({ email: "ada@EXAMPLE.com" }), limited)).toMatchObject({ ok: true });
    expect(judgeSsoClaims(claims({ email: "ada@mail.example.com" }), limited)).toMatchObject({ ok: false, reason: "domain_not_allowed" });
    expect(judgeSsoClaims(claims({ email: "ada@example.com.evil.test" }), limited)).toMatchObject({ ok: false, reason: "domain_not_allowed" });
  });

  it("maps groups to a role: admin wins over support, none is refused", () => {
    expect(roleForGroups(["helpdesk", "console-admins"], config)).toBe("admin");
    expect(roleForGroups(["staff", "helpdesk"], config)).toBe("support");
    expect(roleForGroups(["staff", "Console-Admins"], config)).toBeNull();
    expect(judgeSsoClaims(claims({ groups: ["staff"] }), config)).toMatchObject({ ok: false, reason: "no_role", email: "ada@example.com" });
    expect(judgeSsoClaims(claims({ groups: undefined }), config)).toMatchObject({ ok: false, reason: "no_role" });
  });

  it("accepts the groups claim as one string, and reads the claim it is told to", () => {
    expect(judgeSsoClaims(claims({ groups: "console-support" }), config)).toMatchObject({ ok: true, role: "support" });
    const rolesClaim = { ...config, groupsClaim: "roles" };
    expect(judgeSsoClaims(claims({ groups: undefined, roles: ["console-admins", 7] }), rolesClaim)).toMatchObject({ ok: true, role: "admin" });
    expect(judgeSsoClaims(claims(), rolesClaim)).toMatchObject({ ok: false, reason: "no_role" });
  });

  it("names the person by name, else preferred_username, else email", () => {
    expect(judgeSsoClaims(claims({ name: undefined, preferred_username: "ada.l" }), config)).toMatchObject({ name: "ada.l" });
    expect(judgeSsoClaims(claims({ name: " " }), config)).toMatchObject({ name: "ada@example.com" });
  });

  it("throws for claims without an issuer or subject", () => {
    expect(() => judgeSsoClaims(claims({ sub: undefined }), config)).toThrow();
  });
});

describe("single sign-on against the database", () => {
  let db: Database;
  let tearDown: () => Promise<void>;
  const account: Account = { provider: "oidc", type: "oauth", providerAccountId: "x" };

  beforeAll(async () => {
    Object.assign(process.env, {
      CONSOLE_OIDC_ISSUER: ISSUER,
      CONSOLE_OIDC_CLIENT_ID: "console",
      CONSOLE_OIDC_CLIENT_SECRET: "client-secret",
      CONSOLE_OIDC_NAME: "Example ID",
      CONSOLE_OIDC_ADMIN_GROUPS: "console-admins",
      CONSOLE_OIDC_SUPPORT_GROUPS: "console-support",
    });
    ({ db, tearDown } = await setUpTestDatabase());
  });
  afterAll(() => tearDown());

  const userBySubject = async (subject: string) =>
    (await db.select().from(consoleUsers).where(and(eq(consoleUsers.oidcIssuer, ISSUER), eq(consoleUsers.oidcSubject, subject))))[0];
  const lastAudit = async () => (await db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1))[0];

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
    expect(await admitSsoSignIn(account, claims({ sub: "sub-new", email: "New.Person@Example.com", name: "New Person" }))).toBe(true);
    const user = await userBySubject("sub-new");
    expect(user).toMatchObject({ email: "New.Person@Example.com", name: "New Person", role: "admin", passwordHash: null, disabled: false });
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

  it("updates the same person's name, email and role from the next sign-in", async () => {
    expect(await admitSsoSignIn(account, claims({ sub: "sub-new", email: "new@example.com", name: "Renamed", groups: ["console-support"] }))).toBe(true);
    expect(await userBySubject("sub-new")).toMatchObject({ email: "new@example.com", name: "Renamed", role: "support" });
    expect((await lastAudit())!.details).toEqual({ role: "support", created: false, linked: false });
    expect(await db.select().from(consoleUsers).where(eq(consoleUsers.oidcSubject, "sub-new"))).toHaveLength(1);
  });

  it("links an existing password user with the same email (any case), keeping the password", async () => {
    await createUser({ email: "Pat@Example.com", name: "Pat", role: "support", password: "correct-horse-battery" });
    expect(await admitSsoSignIn(account, claims({ sub: "sub-pat", email: "pat@example.com", name: "Pat P." }))).toBe(true);
    const user = await userBySubject("sub-pat");
    expect(user).toMatchObject({ email: "pat@example.com", name: "Pat P.", role: "admin" });
    expect(user!.passwordHash).toMatch(/^\$argon2id\$/);
    expect((await lastAudit())!.details).toEqual({ role: "admin", created: false, linked: true });
  });

  it("refuses someone with no role, creates nothing, and audits the reason without the claims", async () => {
    expect(await admitSsoSignIn(account, claims({ sub: "sub-nobody", email: "nobody@example.com", groups: ["staff"] }))).toBe(
      "/sign-in/refused?reason=no_role",
    );
    expect(await userBySubject("sub-nobody")).toBeUndefined();
    const audit = await lastAudit();
    expect(audit).toMatchObject({ action: "sign_in.sso_refused", outcome: "denied", actorId: null, actorEmail: "nobody@example.com", details: { reason: "no_role" } });
    expect(JSON.stringify(audit)).not.toContain("staff");
  });

  it("refuses an unverified email", async () => {
    expect(await admitSsoSignIn(account, claims({ sub: "sub-unverified", email_verified: false }))).toBe("/sign-in/refused?reason=email_unverified");
    expect(await userBySubject("sub-unverified")).toBeUndefined();
  });

  it("keeps a disabled user out, whether matched by identity or by email, and changes nothing", async () => {
    expect(await admitSsoSignIn(account, claims({ sub: "sub-leaver", email: "leaver@example.com", groups: ["console-support"] }))).toBe(true);
    await setUserDisabled("leaver@example.com", true);
    expect(await admitSsoSignIn(account, claims({ sub: "sub-leaver", email: "leaver@example.com", name: "Changed" }))).toBe(
      "/sign-in/refused?reason=disabled",
    );
    const leaver = await userBySubject("sub-leaver");
    expect(leaver).toMatchObject({ name: "Ada", role: "support", disabled: true });
    expect(await lastAudit()).toMatchObject({ action: "sign_in.sso_refused", actorId: leaver!.id, details: { reason: "disabled" } });
    await expect(ssoSessionUser(account, claims({ sub: "sub-leaver" }))).rejects.toThrow(/not an enabled console user/);

    await createUser({ email: "dora@example.com", name: "Dora", role: "support", password: "correct-horse-battery" });
    await setUserDisabled("dora@example.com", true);
    expect(await admitSsoSignIn(account, claims({ sub: "sub-dora", email: "dora@example.com" }))).toBe("/sign-in/refused?reason=disabled");
    expect(await userBySubject("sub-dora")).toBeUndefined();
  });

  it("refuses an email that belongs to a user linked to another identity", async () => {
    expect(await admitSsoSignIn(account, claims({ sub: "sub-other", email: "pat@example.com" }))).toBe("/sign-in/refused?reason=account_conflict");
    expect(await admitSsoSignIn(account, claims({ sub: "sub-new", email: "PAT@example.com" }))).toBe("/sign-in/refused?reason=account_conflict");
    expect(await userBySubject("sub-new")).toMatchObject({ email: "new@example.com" });
  });

  it("keeps nothing when the audit record cannot be written, and sends the person to a clear error", async () => {
    const result = await whileAuditInsertsFail(db, () => admitSsoSignIn(account, claims({ sub: "sub-unaudited", email: "unaudited@example.com" })));
    expect(result).toBe("/sign-in?error=Callback");
    expect(await userBySubject("sub-unaudited")).toBeUndefined();
  });

  it("sends claims without a subject to the error page rather than throwing", async () => {
    expect(await admitSsoSignIn(account, { email: "x@example.com" })).toBe("/sign-in?error=Callback");
    expect(await admitSsoSignIn({ ...account, provider: "github" }, claims())).toBe("/sign-in?error=Callback");
  });
});

describe("discoveryAnswers", () => {
  let server: http.Server;
  let base: string;
  const document = { issuer: "x", authorization_endpoint: "x", token_endpoint: "x", jwks_uri: "x" };

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === "/ok") res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(document));
      else if (req.url === "/html") res.writeHead(200, { "content-type": "text/html" }).end("<html></html>");
      else if (req.url === "/down") res.writeHead(503).end();
      // "/hang": never answers.
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it("is true only for a discovery document", async () => {
    expect(await discoveryAnswers(`${base}/ok`, 2000)).toBe(true);
    expect(await discoveryAnswers(`${base}/html`, 2000)).toBe(false);
    expect(await discoveryAnswers(`${base}/down`, 2000)).toBe(false);
  });

  it("gives up on a provider that does not answer within the timeout", async () => {
    const started = Date.now();
    expect(await discoveryAnswers(`${base}/hang`, 300)).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("is false when nothing listens", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    expect(await discoveryAnswers(`http://127.0.0.1:${port}/`, 2000)).toBe(false);
  });
});
