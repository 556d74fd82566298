import "server-only";

import { z } from "zod";

import { logger } from "@/lib/logger";
import { isLoopbackHost } from "@/lib/loopback";
import { processSingleton } from "@/lib/process-singleton";

/**
 * The single sign-on settings (CONSOLE_OIDC_*) and CONSOLE_PASSWORD_SIGN_IN, read here and not in lib/env.ts: a
 * wrong setting must not stop the console starting; it turns single sign-on off, is logged once by name (never by
 * value) and is named on the sign-in page.
 */
const OIDC_VARIABLES = [
  "CONSOLE_OIDC_ISSUER",
  "CONSOLE_OIDC_CLIENT_ID",
  "CONSOLE_OIDC_CLIENT_SECRET",
  "CONSOLE_OIDC_NAME",
  "CONSOLE_OIDC_GROUPS_CLAIM",
  "CONSOLE_OIDC_ADMIN_GROUPS",
  "CONSOLE_OIDC_SUPPORT_GROUPS",
  "CONSOLE_OIDC_ALLOWED_DOMAINS",
] as const;

export type OidcConfig = {
  issuer: string;
  /** The discovery document, `<issuer>/.well-known/openid-configuration`. */
  wellKnownUrl: string;
  clientId: string;
  clientSecret: string;
  /** Shown as "Sign in with <name>". */
  name: string;
  groupsClaim: string;
  adminGroups: string[];
  supportGroups: string[];
  /** Lower case; empty means any domain. */
  allowedDomains: string[];
};

export type OidcSettings =
  | { status: "off" }
  | { status: "invalid"; problems: { variable: string; message: string }[] }
  | { status: "on"; config: OidcConfig };

export type SignInSettings = {
  sso: OidcSettings;
  passwordSignIn: boolean;
  /** Why CONSOLE_PASSWORD_SIGN_IN was not followed, if it was not. */
  passwordSignInProblem?: string;
};

const DEFAULT_OIDC_NAME = "single sign-on";

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

const required = (what: string) => z.string({ error: `is not set (${what})` });

const commaList = z
  .string()
  .optional()
  .transform((v) =>
    v
      ? [
          ...new Set(
            v
              .split(",")
              .map((s) => s.trim())
              .filter(Boolean),
          ),
        ]
      : [],
  );

const issuer = required("the identity provider's issuer URL")
  .trim()
  .refine((v) => {
    try {
      const url = new URL(v);
      const secure = url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname));
      return secure && !url.search && !url.hash && !url.username && !url.password;
    } catch {
      return false;
    }
  }, "must be the issuer's https:// URL (http:// only on this machine), without a query or credentials")
  .transform((v) => v.replace(/\/+$/, ""));

const oidcSchema = z
  .object({
    CONSOLE_OIDC_ISSUER: issuer,
    CONSOLE_OIDC_CLIENT_ID: required("the client id registered at the identity provider")
      .trim()
      .max(1000, "is too long"),
    CONSOLE_OIDC_CLIENT_SECRET: required("the client secret registered at the identity provider").max(
      4000,
      "is too long",
    ),
    CONSOLE_OIDC_NAME: z.string().trim().max(60, "must be at most 60 characters").default(DEFAULT_OIDC_NAME),
    CONSOLE_OIDC_GROUPS_CLAIM: z
      .string()
      .trim()
      .max(200, "must be at most 200 characters")
      .regex(/^[\x21-\x7e]+$/, "must be a claim name, without spaces")
      .default("groups"),
    CONSOLE_OIDC_ADMIN_GROUPS: commaList,
    CONSOLE_OIDC_SUPPORT_GROUPS: commaList,
    CONSOLE_OIDC_ALLOWED_DOMAINS: commaList
      .transform((domains) => domains.map((d) => d.toLowerCase().replace(/^@/, "")))
      .refine(
        (domains) => domains.every((d) => DOMAIN.test(d)),
        "must be email domains separated by commas, e.g. example.com,example.org",
      ),
  })
  .refine((s) => s.CONSOLE_OIDC_ADMIN_GROUPS.length + s.CONSOLE_OIDC_SUPPORT_GROUPS.length > 0, {
    path: ["CONSOLE_OIDC_ADMIN_GROUPS"],
    message: "and CONSOLE_OIDC_SUPPORT_GROUPS are both empty: set at least one, or nobody gets a role",
  });

type Source = Record<string, string | undefined>;

/** An empty variable counts as unset, as in lib/env.ts. */
function value(source: Source, name: string): string | undefined {
  const v = source[name];
  return v === undefined || v.trim() === "" ? undefined : v;
}

export function parseOidcSettings(source: Source): OidcSettings {
  const present = Object.fromEntries(OIDC_VARIABLES.map((name) => [name, value(source, name)]));
  if (Object.values(present).every((v) => v === undefined)) return { status: "off" };
  const result = oidcSchema.safeParse(present);
  if (!result.success) {
    return {
      status: "invalid",
      problems: result.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? "CONSOLE_OIDC_*"),
        message: issue.message,
      })),
    };
  }
  const s = result.data;
  return {
    status: "on",
    config: {
      issuer: s.CONSOLE_OIDC_ISSUER,
      wellKnownUrl: `${s.CONSOLE_OIDC_ISSUER}/.well-known/openid-configuration`,
      clientId: s.CONSOLE_OIDC_CLIENT_ID,
      clientSecret: s.CONSOLE_OIDC_CLIENT_SECRET,
      name: s.CONSOLE_OIDC_NAME || DEFAULT_OIDC_NAME,
      groupsClaim: s.CONSOLE_OIDC_GROUPS_CLAIM,
      adminGroups: s.CONSOLE_OIDC_ADMIN_GROUPS,
      supportGroups: s.CONSOLE_OIDC_SUPPORT_GROUPS,
      allowedDomains: s.CONSOLE_OIDC_ALLOWED_DOMAINS,
    },
  };
}

/**
 * CONSOLE_PASSWORD_SIGN_IN=false is followed only while single sign-on works: otherwise nobody could
 * sign in at all (the users CLI would be the only way back).
 */
export function parseSignInSettings(source: Source): SignInSettings {
  const sso = parseOidcSettings(source);
  const raw = value(source, "CONSOLE_PASSWORD_SIGN_IN")?.trim().toLowerCase();
  if (raw === undefined || raw === "true") return { sso, passwordSignIn: true };
  if (raw !== "false")
    return { sso, passwordSignIn: true, passwordSignInProblem: "CONSOLE_PASSWORD_SIGN_IN must be true or false" };
  if (sso.status !== "on") {
    return {
      sso,
      passwordSignIn: true,
      passwordSignInProblem:
        "CONSOLE_PASSWORD_SIGN_IN is false but single sign-on is not configured correctly, so password sign-in stays on",
    };
  }
  return { sso, passwordSignIn: false };
}

/** Where the process keeps its settings: Next bundles this module into several server layers. */
const SIGN_IN_SETTINGS_KEY = "auth.sign-in-settings";

/** This process's settings, parsed (and any problem logged) once. */
export function signInSettings(): SignInSettings {
  return processSingleton(SIGN_IN_SETTINGS_KEY, () => {
    const settings = parseSignInSettings(process.env);
    if (settings.sso.status === "invalid") {
      logger.error("single sign-on is off: a CONSOLE_OIDC_* setting is wrong", {
        problems: settings.sso.problems.map((p) => `${p.variable} ${p.message}`),
      });
    }
    if (settings.passwordSignInProblem)
      logger.warn("password sign-in stays on", { reason: settings.passwordSignInProblem });
    return settings;
  });
}

export function oidcSettings(): OidcSettings {
  return signInSettings().sso;
}

/**
 * False only with CONSOLE_PASSWORD_SIGN_IN=false and working single sign-on: then the credentials provider is not
 * registered.
 */
export function passwordSignInEnabled(): boolean {
  return signInSettings().passwordSignIn;
}
