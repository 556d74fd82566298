import { z } from "zod";

/** Client-safe: why a single sign-on was refused, and how the sign-in pages say what went wrong. */
const ssoRefusalReasons = ["no_role", "email_unverified", "domain_not_allowed", "disabled", "account_conflict"] as const;
export type SsoRefusalReason = (typeof ssoRefusalReasons)[number];

export const ssoRefusalReasonSchema = z.enum(ssoRefusalReasons);

/** The refusal page's address: the reason only, never who was refused. */
export function ssoRefusedPath(reason: SsoRefusalReason): string {
  return `/sign-in/refused?reason=${reason}`;
}

export type SsoRefusalText = { title: string; why: string; whatToDo: string };

export function ssoRefusalText(reason: SsoRefusalReason | undefined, providerName: string): SsoRefusalText {
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
        whatToDo: "Sign in with your work account. If you think your domain should be allowed, ask a console administrator.",
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
