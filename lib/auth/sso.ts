import "server-only";

import { and, eq, ne, sql, type SQL } from "drizzle-orm";
import type { Account, Profile, User } from "next-auth";
import type { Provider } from "next-auth/providers/index";

import { recordAudit, type AuditActor } from "@/lib/audit/audit";
import { getDb, type Transaction } from "@/lib/db";
import { consoleUsers, type ConsoleUser } from "@/lib/db/schema";
import { errorMessage } from "@/lib/error-message";
import { logger } from "@/lib/logger";

import { revokeUserTokens } from "./api-tokens";
import { isLastEnabledAdmin, lockEnabledAdmins, removesAnAdmin } from "./last-admin";
import { oidcSettings } from "./oidc-config";
import type { Role } from "./roles";
import { judgeSsoClaims, ssoIdentity, type SsoVerdict } from "./sso-claims";
import { fetchDiscovery, issuerIsConfigured } from "./sso-issuer";
import { mayLinkTo, presentedSession, requestCookieHeader, type CookieHeaderReader } from "./sso-link";
import { ssoRefusedPath, type SsoRefusalReason } from "./sso-messages";
import { findSessionSubject, nextSessionVersion, voidedPasswordLink } from "./users";

/** What a session token is issued for: the console user behind an admitted single sign-on. */
export type SsoUser = { id: string; email: string; name: string; role: Role; sessionVersion: number };

const SSO_PROVIDER_ID = "oidc";

/**
 * Each request to the provider gives up after this long (openid-client's default is 3.5 s): a sign-in makes one
 * (discovery) to start and three to finish, so a provider that is down fails either within 10 s.
 */
const SSO_HTTP_TIMEOUT_MS = 3_000;

/** Where a sign-in that failed on the console's side goes: the sign-in page says it in words. */
const SSO_FAILED_PATH = "/sign-in?error=Callback";

/** The OpenID Connect provider when CONSOLE_OIDC_* configure one correctly; none otherwise. */
export function ssoProviders(): Provider[] {
  const settings = oidcSettings();
  if (settings.status !== "on") return [];
  const { config } = settings;
  return [
    {
      id: SSO_PROVIDER_ID,
      name: config.name,
      type: "oauth",
      wellKnown: config.wellKnownUrl,
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      authorization: { params: { scope: "openid email profile" } },
      checks: ["pkce", "state"],
      idToken: true,
      httpOptions: { timeout: SSO_HTTP_TIMEOUT_MS },
      // next-auth wants a User here, but uses it for nothing this console keeps: admitSsoSignIn
      // judges the ID token's claims and the session is issued for ssoSessionUser, read from the
      // database. A throw here would make next-auth log the whole profile, so nothing here throws.
      profile: (claims: { sub: string; name?: string; email?: string }) =>
        ({ id: String(claims.sub), name: claims.name, email: claims.email }) as User,
    },
  ];
}

/**
 * next-auth's signIn callback: true to admit, or the path of the page that says why not. Admitting creates or
 * updates the console user (sso-link.ts) with the groups' role, under the last-admin guard, in one transaction with
 * its audit record; refusals are audited too. Never throws: next-auth would put the message in a URL.
 */
export async function admitSsoSignIn(
  account: Account,
  profile: Profile | undefined,
  readCookieHeader: CookieHeaderReader = requestCookieHeader,
): Promise<true | string> {
  const settings = oidcSettings();
  if (settings.status !== "on" || account.provider !== SSO_PROVIDER_ID) return SSO_FAILED_PATH;
  try {
    const fromConfiguredIssuer = await issuerIsConfigured(
      ssoIdentity(profile).issuer,
      settings.config,
      SSO_HTTP_TIMEOUT_MS,
    );
    if (!fromConfiguredIssuer)
      logger.warn("single sign-on refused: the ID token names another issuer than CONSOLE_OIDC_ISSUER");
    const verdict = fromConfiguredIssuer ? judgeSsoClaims(profile, settings.config) : undefined;
    const db = await getDb();
    return await db.transaction((tx) => {
      // Nothing in a token from another issuer is worth recording, not even the email it claims.
      if (!verdict) return refuse(tx, "issuer_mismatch", { id: null, email: null });
      return verdict.ok
        ? admit(tx, verdict, readCookieHeader)
        : refuse(tx, verdict.reason, { id: null, email: verdict.email });
    });
  } catch (error) {
    logger.error("single sign-on failed", { error: errorMessage(error) });
    return SSO_FAILED_PATH;
  }
}

type Admitted = Extract<SsoVerdict, { ok: true }>;

async function admit(tx: Transaction, verdict: Admitted, readCookieHeader: CookieHeaderReader): Promise<true | string> {
  // Before any user's row: the order in which every guarded change takes its locks (last-admin.ts).
  const enabledAdmins = await lockEnabledAdmins(tx);
  const byIdentity = await lockUser(
    tx,
    and(eq(consoleUsers.oidcIssuer, verdict.issuer), eq(consoleUsers.oidcSubject, verdict.subject)),
  );
  const byEmail = byIdentity ? undefined : await lockUser(tx, emailIs(verdict.email));
  if (byEmail && byEmail.oidcIssuer !== null) return refuse(tx, "account_conflict", actorOf(byEmail));
  const existing = byIdentity ?? byEmail;
  if (existing?.disabled) return refuse(tx, "disabled", actorOf(existing));
  if (byIdentity) {
    // The identity provider changed this person's email to one another console user already has.
    const [taken] = await tx
      .select({ id: consoleUsers.id })
      .from(consoleUsers)
      .where(and(emailIs(verdict.email), ne(consoleUsers.id, byIdentity.id)))
      .limit(1);
    if (taken) return refuse(tx, "account_conflict", actorOf(byIdentity));
  }
  if (byEmail && !mayLinkTo(byEmail, await presentedSession(await readCookieHeader())))
    return refuse(tx, "link_requires_password", actorOf(byEmail));
  // The provider's groups do not outrank the guard: the last enabled admin stays one, and stays out.
  if (existing && removesAnAdmin(existing, verdict.role) && isLastEnabledAdmin(enabledAdmins, existing.id))
    return refuse(tx, "last_admin", actorOf(existing));

  const now = new Date();
  const fields = {
    email: verdict.email,
    name: verdict.name,
    role: verdict.role,
    oidcIssuer: verdict.issuer,
    oidcSubject: verdict.subject,
    lastSignInAt: now,
  };
  const previousRole = existing && existing.role !== verdict.role ? existing.role : undefined;
  const [user] = existing
    ? await tx
        .update(consoleUsers)
        .set({
          ...fields,
          updatedAt: now,
          // A new role ends the user's other sessions (their role is in them), in this same UPDATE.
          ...(previousRole ? { sessionVersion: nextSessionVersion } : {}),
          // A linked user signs in through the provider: a set-password link would be a second way in.
          ...(byEmail ? voidedPasswordLink : {}),
        })
        .where(eq(consoleUsers.id, existing.id))
        .returning()
    : await tx.insert(consoleUsers).values(fields).onConflictDoNothing().returning();
  // Only a sign-in of the same person (or email) committing at the same moment gets here: try again.
  if (!user) throw new Error("a concurrent sign-in created this console user first");
  await recordAudit(
    {
      actor: actorOf(user),
      action: "sign_in.sso",
      outcome: "success",
      target: user.email,
      details: {
        role: user.role,
        created: !existing,
        linked: Boolean(byEmail),
        ...(previousRole ? { previousRole } : {}),
      },
    },
    tx,
  );
  // The provider's groups lowered the role: the user's tokens above it end, as when an admin lowers it.
  if (previousRole) await revokeUserTokens(tx, user.id, { reason: "role_lowered", role: user.role }, actorOf(user));
  return true;
}

async function refuse(tx: Transaction, reason: SsoRefusalReason, actor: AuditActor): Promise<string> {
  await recordAudit({ actor, action: "sign_in.sso_refused", outcome: "denied", details: { reason } }, tx);
  return ssoRefusedPath(reason);
}

const actorOf = (user: ConsoleUser): AuditActor => ({ id: user.id, email: user.email });

function emailIs(email: string) {
  return eq(sql`lower(${consoleUsers.email})`, email.toLowerCase());
}

async function lockUser(tx: Transaction, where: SQL | undefined): Promise<ConsoleUser | undefined> {
  const [row] = await tx.select().from(consoleUsers).where(where).limit(1).for("update");
  return row;
}

/** The console user an admitted single sign-on is, for the session token. */
export async function ssoSessionUser(account: Account, profile: Profile | undefined): Promise<SsoUser> {
  void account;
  const { issuer, subject } = ssoIdentity(profile);
  const user = await findSessionSubject(
    and(eq(consoleUsers.oidcIssuer, issuer), eq(consoleUsers.oidcSubject, subject))!,
  );
  if (!user || user.disabled) throw new Error("the single sign-on user is not an enabled console user");
  return { id: user.id, email: user.email, name: user.name, role: user.role, sessionVersion: user.sessionVersion };
}

/** How long the sign-in page trusts its last look at the provider, and how long a look may take. */
const STATUS_TTL_MS = 30_000;
const STATUS_TIMEOUT_MS = 3_000;
let lastStatus: { at: number; reachable: Promise<boolean> } | undefined;

/**
 * Whether the provider's discovery document answers, for the sign-in page's note. Looked at most once
 * per 30 s (and one look at a time); `fresh` looks again now, when a sign-in has just failed.
 */
export function ssoProviderReachable({ fresh = false }: { fresh?: boolean } = {}): Promise<boolean> {
  const settings = oidcSettings();
  if (settings.status !== "on") return Promise.resolve(false);
  const now = Date.now();
  const pending = lastStatus && now - lastStatus.at < STATUS_TIMEOUT_MS;
  if (lastStatus && (pending || (!fresh && now - lastStatus.at < STATUS_TTL_MS))) return lastStatus.reachable;
  lastStatus = { at: now, reachable: discoveryAnswers(settings.config.wellKnownUrl, STATUS_TIMEOUT_MS) };
  return lastStatus.reachable;
}

/** True when the URL answers 200 with a discovery document within the timeout. */
export async function discoveryAnswers(url: string, timeoutMs: number): Promise<boolean> {
  try {
    await fetchDiscovery(url, timeoutMs);
    return true;
  } catch (error) {
    logger.warn("single sign-on provider is not answering", { reason: errorMessage(error) });
    return false;
  }
}
