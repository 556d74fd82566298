import { describe, expect, it } from "vitest";

import type { OidcConfig } from "./oidc-config";
import { judgeSsoClaims, roleForGroups } from "./sso-claims";

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

describe("judgeSsoClaims", () => {
  it("admits a verified email in an admin group as admin, with its identity", () => {
    expect(judgeSsoClaims(claims(), config)).toEqual({
      ok: true,
      issuer: ISSUER,
      subject: "sub-ada",
      email: "ada@example.com",
      name: "Ada",
      role: "admin",
    });
  });

  it("requires email_verified to be exactly true", () => {
    for (const emailVerified of [false, "true", 1, undefined]) {
      expect(judgeSsoClaims(claims({ email_verified: emailVerified }), config)).toMatchObject({
        ok: false,
        reason: "email_unverified",
      });
    }
    expect(judgeSsoClaims(claims({ email: undefined }), config)).toMatchObject({
      ok: false,
      reason: "email_unverified",
      email: null,
    });
    expect(judgeSsoClaims(claims({ email: "not-an-email" }), config)).toMatchObject({
      ok: false,
      reason: "email_unverified",
    });
  });

  it("refuses an email outside the allowed domains (case-insensitive, no subdomains)", () => {
    const limited = { ...config, allowedDomains: ["example.com"] };
    expect(judgeSsoClaims(claims({ email: "ada@EXAMPLE.com" }), limited)).toMatchObject({ ok: true });
    expect(judgeSsoClaims(claims({ email: "ada@mail.example.com" }), limited)).toMatchObject({
      ok: false,
      reason: "domain_not_allowed",
    });
    expect(judgeSsoClaims(claims({ email: "ada@example.com.evil.test" }), limited)).toMatchObject({
      ok: false,
      reason: "domain_not_allowed",
    });
  });

  it("maps groups to a role: admin wins over support, none is refused", () => {
    expect(roleForGroups(["helpdesk", "console-admins"], config)).toBe("admin");
    expect(roleForGroups(["staff", "helpdesk"], config)).toBe("support");
    expect(roleForGroups(["staff", "Console-Admins"], config)).toBeNull();
    expect(judgeSsoClaims(claims({ groups: ["staff"] }), config)).toMatchObject({
      ok: false,
      reason: "no_role",
      email: "ada@example.com",
    });
    expect(judgeSsoClaims(claims({ groups: undefined }), config)).toMatchObject({ ok: false, reason: "no_role" });
  });

  it("accepts the groups claim as one string, and reads the claim it is told to", () => {
    expect(judgeSsoClaims(claims({ groups: "console-support" }), config)).toMatchObject({ ok: true, role: "support" });
    const rolesClaim = { ...config, groupsClaim: "roles" };
    expect(judgeSsoClaims(claims({ groups: undefined, roles: ["console-admins", 7] }), rolesClaim)).toMatchObject({
      ok: true,
      role: "admin",
    });
    expect(judgeSsoClaims(claims(), rolesClaim)).toMatchObject({ ok: false, reason: "no_role" });
  });

  it("a name with a line break or another control character is kept on one line", () => {
    expect(judgeSsoClaims(claims({ name: "Ada\nAdmin: yes\t\u001b[31m" }), config)).toMatchObject({
      name: "Ada\uFFFDAdmin: yes\uFFFD\uFFFD[31m",
    });
    expect(judgeSsoClaims(claims({ name: undefined, preferred_username: "ada\r\nx" }), config)).toMatchObject({
      name: "ada\uFFFD\uFFFDx",
    });
  });

  it("names the person by name, else preferred_username, else email", () => {
    expect(judgeSsoClaims(claims({ name: undefined, preferred_username: "ada.l" }), config)).toMatchObject({
      name: "ada.l",
    });
    expect(judgeSsoClaims(claims({ name: " " }), config)).toMatchObject({ name: "ada@example.com" });
  });

  it("throws for claims without an issuer or subject", () => {
    expect(() => judgeSsoClaims(claims({ sub: undefined }), config)).toThrow();
  });
});
