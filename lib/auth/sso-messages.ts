import { z } from "zod";

/** Client-safe: why a single sign-on was refused, and how the sign-in pages say what went wrong. */
const ssoRefusalReasons = [
  "no_role",
  "email_unverified",
  "domain_not_allowed",
  "disabled",
  "account_conflict",
  "link_requires_password",
  "last_admin",
  "issuer_mismatch",
] as const;
export type SsoRefusalReason = (typeof ssoRefusalReasons)[number];

export const ssoRefusalReasonSchema = z.enum(ssoRefusalReasons);

/** The refusal page's address: the reason only, never who was refused. */
export function ssoRefusedPath(reason: SsoRefusalReason): string {
  return `/sign-in/refused?reason=${reason}`;
}

/** Where a console user confirms that a single sign-on identity is theirs: signed in with their password. */
export const SSO_LINK_PATH = "/link-sso";

export type SsoRefusalText = { title: string; why: string; whatToDo: string };

/** `passwordSignIn`: whether this console offers password sign-in, the way to confirm a link. */
export function ssoRefusalText(
  reason: SsoRefusalReason | undefined,
  providerName: string,
  passwordSignIn = true,
): SsoRefusalText {
  switch (reason) {
    case "no_role":
      return {
        title: "Your account has no role in this console",
        why: `${providerName} signed you in, but you are not in any of the groups that give access to Tenant Console (an admin group or a support group).`,
        whatToDo: `Ask a console administrator, or whoever manages groups at ${providerName}, to add you to the right group. Then sign in again.`,
      };
    case "email_unverified":
      return {
        title: "Your email address is not verified",
        why: `${providerName} did not confirm that your email address is verified, and the console only accepts verified addresses.`,
        whatToDo: `Verify your email address with ${providerName} (or ask its administrator to), then sign in again.`,
      };
    case "domain_not_allowed":
      return {
        title: "Your email domain is not allowed here",
        why: "This console only accepts people whose email address is in one of the domains its administrators allowed.",
        whatToDo:
          "Sign in with your work account. If you think your domain should be allowed, ask a console administrator.",
      };
    case "disabled":
      return {
        title: "Your console account is disabled",
        why: "A console administrator disabled your account, so signing in is refused, also through single sign-on.",
        whatToDo: "Ask a console administrator to enable your account.",
      };
    case "account_conflict":
      return {
        title: "Your email address belongs to another sign-in",
        why: `A console user with your email address is already linked to a different ${providerName} account.`,
        whatToDo: "Ask a console administrator to sort out which account is yours.",
      };
    case "link_requires_password":
      return {
        title: "This email already has a console account",
        why: `An account with this email already exists in the console. It signs in with a password (or is an admin account), so it is linked to your ${providerName} account only once you show that it is yours.`,
        whatToDo: passwordSignIn
          ? `Sign in with its password, then use Sign in with ${providerName} to link it. If the account has no password yet, set one first with the link a console administrator gave you (or ask for a new one).`
          : `Password sign-in is turned off in this console, so the link cannot be confirmed. Ask a console administrator to turn password sign-in on for a while (its setting is in the console's configuration guide); then sign in with the account's password and use Sign in with ${providerName} to link it.`,
      };
    case "last_admin":
      return {
        title: "Signing you in would leave the console without an admin",
        why: `You are the console's only enabled admin, and your groups at ${providerName} no longer give you the admin role. The console refused the sign-in and left your account as it was.`,
        whatToDo: `Ask whoever manages groups at ${providerName} to put you back in an admin group, or make someone else a console admin first (Team page). Then sign in again.`,
      };
    case "issuer_mismatch":
      return {
        title: "This sign-in came from another directory",
        why: `The answer was issued by a different issuer than the ${providerName} directory this console trusts (another tenant or organisation of the same service, for example).`,
        whatToDo: `Sign in with your account in your organisation's own ${providerName} directory. If that is what you did, ask a console administrator to check the directory (issuer) the console's single sign-on setting names.`,
      };
    default:
      return {
        title: "Single sign-on was refused",
        why: "The console did not accept this sign-in.",
        whatToDo: "Try again, or ask a console administrator.",
      };
  }
}

/**
 * What next-auth's `?error=` codes mean, in words; unknown codes get the general message and are
 * never echoed (the page would otherwise show whatever a link put there).
 */
export function signInErrorText(code: string | undefined, providerName: string): string | undefined {
  if (!code) return undefined;
  switch (code) {
    case "OAuthSignin":
      return `Could not start single sign-on: ${providerName} did not answer in time. Try again in a few minutes.`;
    case "OAuthCallback":
      return `Single sign-on could not be completed: the answer from ${providerName} could not be verified. This happens when a sign-in link is reused or tampered with, took too long, or was started in another browser. Start again from this page.`;
    case "Callback":
      return `Single sign-on did not complete: it was cancelled at ${providerName}, or the console could not finish it. Start again; if it keeps failing, ask a console administrator to check the server log.`;
    case "AccessDenied":
      return "You are not allowed to sign in to this console.";
    case "Configuration":
      return "The console's sign-in is not configured correctly. Ask a console administrator to check the server log.";
    case "SessionRequired":
      return "Sign in to continue.";
    case "CredentialsSignin":
      return "Email or password is incorrect.";
    default:
      return "Sign-in did not complete. Try again.";
  }
}
