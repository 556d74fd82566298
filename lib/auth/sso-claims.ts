import { z } from "zod";

import { oneLineName } from "@/lib/display-name";

import type { OidcConfig } from "./oidc-config";
import type { Role } from "./roles";
import type { SsoRefusalReason } from "./sso-messages";

/** Who an ID token says someone is, and what the console makes of it: a role, or a refusal. */
export type SsoIdentity = { issuer: string; subject: string };

export type SsoVerdict =
  | (SsoIdentity & { ok: true; email: string; name: string; role: Role })
  | (SsoIdentity & { ok: false; reason: SsoRefusalReason; email: string | null });

const identitySchema = z.object({
  iss: z.string().min(1).max(2000),
  sub: z.string().min(1).max(255),
});

const claimsSchema = identitySchema.extend({
  email: z.email().max(320).optional().catch(undefined),
  email_verified: z.unknown().optional(),
  // The provider's, not typed here: put on one line rather than refused, so a stray tab cannot stop a sign-in.
  name: z.string().transform(oneLineName).pipe(z.string().trim().max(200)).optional().catch(undefined),
  preferred_username: z.string().transform(oneLineName).pipe(z.string().trim().max(200)).optional().catch(undefined),
});

/**
 * Only the issuer or subject can fail to parse, and no valid ID token lacks them: a short message, never the
 * claims.
 */
function parseClaims<T extends z.ZodType>(schema: T, claims: unknown): z.infer<T> {
  const parsed = schema.safeParse(claims);
  if (!parsed.success) throw new Error("the ID token's claims have no usable issuer or subject");
  return parsed.data;
}

/** The issuer and subject of an ID token's claims. */
export function ssoIdentity(claims: unknown): SsoIdentity {
  const { iss, sub } = parseClaims(identitySchema, claims);
  return { issuer: iss, subject: sub };
}

/** The groups claim as a list: an array (its strings) or one string (one group). */
function groupsFromClaim(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === "string");
  return [];
}

/** Admin wins when someone is in both an admin and a support group; in neither, no role. */
export function roleForGroups(
  groups: string[],
  config: Pick<OidcConfig, "adminGroups" | "supportGroups">,
): Role | null {
  if (groups.some((g) => config.adminGroups.includes(g))) return "admin";
  if (groups.some((g) => config.supportGroups.includes(g))) return "support";
  return null;
}

/**
 * The checks, in order: a verified email (email_verified exactly true), an allowed domain, a group
 * that maps to a role. The database's own checks (disabled, linked elsewhere) come after, in sso.ts.
 */
export function judgeSsoClaims(claims: unknown, config: OidcConfig): SsoVerdict {
  const parsed = parseClaims(claimsSchema, claims);
  const identity = { issuer: parsed.iss, subject: parsed.sub };
  const email = parsed.email?.trim() ?? null;
  if (!email || parsed.email_verified !== true) return { ...identity, ok: false, reason: "email_unverified", email };
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  if (config.allowedDomains.length > 0 && !config.allowedDomains.includes(domain)) {
    return { ...identity, ok: false, reason: "domain_not_allowed", email };
  }
  const role = roleForGroups(groupsFromClaim((claims as Record<string, unknown>)[config.groupsClaim]), config);
  if (!role) return { ...identity, ok: false, reason: "no_role", email };
  const name = parsed.name || parsed.preferred_username || email;
  return { ...identity, ok: true, email, name, role };
}
