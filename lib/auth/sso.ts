import "server-only";
import type { Account, Profile } from "next-auth";
import type { Provider } from "next-auth/providers/index";
import type { Role } from "./roles";

/** What a session token is issued for: the console user behind an admitted single sign-on. */
export type SsoUser = { id: string; email: string; name: string; role: Role; sessionVersion: number };

/** The OpenID Connect provider when CONSOLE_OIDC_* configure one correctly; none otherwise. */
export function ssoProviders(): Provider[] {
  return [];
}

/** next-auth's signIn callback for a single sign-on: true to admit, or the path of the page that says why not. */
export async function admitSsoSignIn(account: Account, profile: Profile | undefined): Promise<true | string> {
  void account;
  void profile;
  return "/sign-in?error=AccessDenied";
}

/** The console user an admitted single sign-on is, for the session token. */
export async function ssoSessionUser(account: Account, profile: Profile | undefined): Promise<SsoUser> {
  void account;
  void profile;
  throw new Error("Single sign-on is not configured.");
}
