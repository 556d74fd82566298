import { describe, expect, it } from "vitest";

import { parseOidcSettings, parseSignInSettings } from "./oidc-config";

const complete = {
  CONSOLE_OIDC_ISSUER: "https://login.example.com/oauth2/default/",
  CONSOLE_OIDC_CLIENT_ID: "console",
  CONSOLE_OIDC_CLIENT_SECRET: "s3cret-value-never-shown",
  CONSOLE_OIDC_ADMIN_GROUPS: "Console Admins, platform-admins",
};

function problemsOf(source: Record<string, string | undefined>) {
  const settings = parseOidcSettings(source);
  if (settings.status !== "invalid") throw new Error(`expected invalid settings, got ${settings.status}`);
  return settings.problems;
}

describe("parseOidcSettings", () => {
  it("is off when no CONSOLE_OIDC_* variable is set (empty ones count as unset)", () => {
    expect(parseOidcSettings({})).toEqual({ status: "off" });
    expect(parseOidcSettings({ CONSOLE_OIDC_ISSUER: "", CONSOLE_OIDC_CLIENT_ID: "  " })).toEqual({ status: "off" });
  });

  it("reads a complete configuration with its defaults", () => {
    expect(parseOidcSettings(complete)).toEqual({
      status: "on",
      config: {
        issuer: "https://login.example.com/oauth2/default",
        wellKnownUrl: "https://login.example.com/oauth2/default/.well-known/openid-configuration",
        clientId: "console",
        clientSecret: "s3cret-value-never-shown",
        name: "single sign-on",
        groupsClaim: "groups",
        adminGroups: ["Console Admins", "platform-admins"],
        supportGroups: [],
        allowedDomains: [],
      },
    });
  });

  it("reads the optional variables", () => {
    const settings = parseOidcSettings({
      ...complete,
      CONSOLE_OIDC_NAME: " Okta ",
      CONSOLE_OIDC_GROUPS_CLAIM: "roles",
      CONSOLE_OIDC_SUPPORT_GROUPS: "helpdesk,,helpdesk",
      CONSOLE_OIDC_ALLOWED_DOMAINS: "Example.com, @example.org",
    });
    expect(settings).toMatchObject({
      status: "on",
      config: {
        name: "Okta",
        groupsClaim: "roles",
        supportGroups: ["helpdesk"],
        allowedDomains: ["example.com", "example.org"],
      },
    });
  });

  it("names each missing variable when single sign-on is half configured", () => {
    const problems = problemsOf({ CONSOLE_OIDC_ISSUER: "https://login.example.com" });
    expect(problems.map((p) => p.variable)).toEqual(["CONSOLE_OIDC_CLIENT_ID", "CONSOLE_OIDC_CLIENT_SECRET"]);
    expect(problems[0]!.message).toMatch(/is not set/);
  });

  it("refuses an issuer that is not https (except on this machine) or carries a query or credentials", () => {
    for (const issuer of [
      "http://login.example.com",
      "login.example.com",
      "https://login.example.com?x=1",
      "https://u:p@login.example.com",
      "ftp://x",
    ]) {
      expect(
        problemsOf({ ...complete, CONSOLE_OIDC_ISSUER: issuer }).map((p) => p.variable),
        issuer,
      ).toEqual(["CONSOLE_OIDC_ISSUER"]);
    }
    expect(parseOidcSettings({ ...complete, CONSOLE_OIDC_ISSUER: "http://127.0.0.1:4020" }).status).toBe("on");
    expect(parseOidcSettings({ ...complete, CONSOLE_OIDC_ISSUER: "http://localhost:8080/realms/acme" }).status).toBe(
      "on",
    );
  });

  it("needs at least one group list, or nobody could get a role", () => {
    const problems = problemsOf({ ...complete, CONSOLE_OIDC_ADMIN_GROUPS: " , " });
    expect(problems).toEqual([
      {
        variable: "CONSOLE_OIDC_ADMIN_GROUPS",
        message: expect.stringMatching(/CONSOLE_OIDC_SUPPORT_GROUPS are both empty/),
      },
    ]);
  });

  it("refuses a domain list that is not domains, a groups claim with spaces and an over-long name", () => {
    const problems = problemsOf({
      ...complete,
      CONSOLE_OIDC_ALLOWED_DOMAINS: "example.com, not a domain",
      CONSOLE_OIDC_GROUPS_CLAIM: "my groups",
      CONSOLE_OIDC_NAME: "x".repeat(61),
    });
    expect(problems.map((p) => p.variable).sort()).toEqual([
      "CONSOLE_OIDC_ALLOWED_DOMAINS",
      "CONSOLE_OIDC_GROUPS_CLAIM",
      "CONSOLE_OIDC_NAME",
    ]);
  });

  it("never puts a value in a problem", () => {
    const secret = "s3cret-value-never-shown";
    const problems = problemsOf({ CONSOLE_OIDC_CLIENT_SECRET: secret, CONSOLE_OIDC_ISSUER: `https://x?${secret}` });
    expect(JSON.stringify(problems)).not.toContain(secret);
  });
});

describe("parseSignInSettings", () => {
  it("keeps password sign-in on by default and with true", () => {
    expect(parseSignInSettings(complete)).toEqual({
      sso: expect.objectContaining({ status: "on" }),
      passwordSignIn: true,
    });
    expect(parseSignInSettings({ ...complete, CONSOLE_PASSWORD_SIGN_IN: "TRUE" })).toMatchObject({
      passwordSignIn: true,
    });
  });

  it("turns password sign-in off only when single sign-on works", () => {
    expect(parseSignInSettings({ ...complete, CONSOLE_PASSWORD_SIGN_IN: "false" })).toMatchObject({
      passwordSignIn: false,
    });
    for (const source of [
      { CONSOLE_PASSWORD_SIGN_IN: "false" },
      { ...complete, CONSOLE_OIDC_CLIENT_SECRET: "", CONSOLE_PASSWORD_SIGN_IN: "false" },
    ]) {
      const settings = parseSignInSettings(source);
      expect(settings.passwordSignIn).toBe(true);
      expect(settings.passwordSignInProblem).toMatch(/single sign-on is not configured correctly/);
    }
  });

  it("keeps password sign-in on for a value that is not true or false", () => {
    expect(parseSignInSettings({ ...complete, CONSOLE_PASSWORD_SIGN_IN: "no" })).toMatchObject({
      passwordSignIn: true,
      passwordSignInProblem: "CONSOLE_PASSWORD_SIGN_IN must be true or false",
    });
  });
});
