import type { Role } from "@/lib/auth/roles";
import type { ActionFailure } from "@/lib/call-action";

/** Client-safe shapes of the team page. Never a password hash or a link's token hash. */

/** How a console user signs in: a password, single sign-on through an issuer (its host), both, or not yet. */
export type SignInMethod = {
  password: boolean;
  ssoHost: string | null;
  /** When a set-password link is pending, when it stops working (it may already have). */
  linkExpiresAt: string | null;
};

export type TeamMember = {
  id: string;
  email: string;
  name: string;
  role: Role;
  disabled: boolean;
  /** Refused or slowed at sign-in right now after failed attempts (lib/auth/throttle.ts). */
  lockedOut: boolean;
  signIn: SignInMethod;
  lastSignInAt: string | null;
  /** The API tokens that act for this user and work now: disabling, signing out everywhere or demoting revokes them. */
  apiTokens: Array<{ name: string; role: Role }>;
};

/** A set-password link as shown once to the admin who made it: the whole URL, and when it stops working. */
export type PasswordLink = { url: string; expiresAt: string };

/** What adding a user answers: the link to send, or the problem (with the field it is about). */
export type AddTeamMemberResult =
  { ok: true; id: string; link: PasswordLink } | (ActionFailure & { field?: "email" | "name" | "role" });

/**
 * A set-password link's token: 32 random bytes, base64url without padding. Here, not in schemas.ts, so the page
 * checks a link without loading zod.
 */
export const PASSWORD_SETUP_TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
