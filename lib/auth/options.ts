import "server-only";

import type { NextAuthOptions, User } from "next-auth";
import type { JWT } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";

import { env } from "@/lib/env";
import { errorMessage } from "@/lib/error-message";
import { logger } from "@/lib/logger";

import { clientAddress } from "./client-ip";
import { currentPasswordCallback } from "./credentials-callback";
import { passwordSignInEnabled } from "./oidc-config";
import type { Role } from "./roles";
import { attemptSignIn } from "./sign-in";
import { admitSsoSignIn, ssoProviders, ssoSessionUser } from "./sso";
import { findSessionSubject } from "./users";

export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

declare module "next-auth" {
  interface Session {
    user: { id: string; email: string; name: string; role: Role };
    /** The session could not be checked against the database on this request. */
    unchecked?: boolean;
  }
  interface User {
    role: Role;
    sessionVersion: number;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    uid?: string;
    role?: Role;
    /** console_users.session_version when the session was issued. */
    sessionVersion?: number;
    /** Set for one request when the database did not answer the session check (see refreshSessionToken). */
    unchecked?: boolean;
  }
}

type SessionReason = "unknown_user" | "disabled" | "revoked";

/**
 * Thrown by the jwt callback to end a session. next-auth then answers "no session" (and, on
 * /api/auth/session, clears the cookie); the logger below records it as the expected event it is.
 */
export class SessionEndedError extends Error {
  override name = "SessionEndedError";
  constructor(readonly reason: SessionReason) {
    super(`session ended: ${reason}`);
  }
}

function tokenFor(token: JWT, user: Pick<User, "id" | "email" | "name" | "role" | "sessionVersion">): JWT {
  return {
    ...token,
    uid: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    sessionVersion: user.sessionVersion,
  };
}

/**
 * Every use of a session after sign-in re-reads the user: one gone, disabled or whose session_version moved on has
 * no session any more; otherwise the token takes the current name, email and role.
 */
export async function refreshSessionToken(token: JWT): Promise<JWT> {
  const current = { ...token };
  delete current.unchecked;
  let user: Awaited<ReturnType<typeof findSessionSubject>>;
  try {
    user =
      current.uid && typeof current.sessionVersion === "number" ? await findSessionSubject(current.uid) : undefined;
  } catch {
    // The database did not answer: the session is neither confirmed nor ended. Ending it would sign
    // everyone out in a database blip; getSessionUser refuses an unchecked session with an error instead.
    return { ...current, unchecked: true };
  }
  if (!user) throw new SessionEndedError("unknown_user");
  if (user.disabled) throw new SessionEndedError("disabled");
  if (user.sessionVersion !== token.sessionVersion) throw new SessionEndedError("revoked");
  return tokenFor(current, user);
}

/**
 * Email and password, checked by attemptSignIn behind the throttle. The result also goes to the
 * request's wrapper (lib/auth/credentials-callback.ts), which answers a refusal with 429 and
 * Retry-After and gives a good sign-in its device cookie.
 */
function passwordProvider() {
  return CredentialsProvider({
    name: "Email and password",
    credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
    async authorize(credentials, req) {
      const callback = currentPasswordCallback();
      const result = await attemptSignIn(credentials, clientAddress(req?.headers, env().CONSOLE_TRUSTED_PROXY_HOPS), {
        deviceToken: callback?.deviceToken,
      });
      callback?.report(result);
      if (!result.ok) throw new Error(result.message);
      return result.user;
    },
  });
}

export function authOptions(): NextAuthOptions {
  return {
    secret: env().NEXTAUTH_SECRET,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    providers: [
      // Off with CONSOLE_PASSWORD_SIGN_IN=false (and single sign-on working): the endpoint itself is gone.
      ...(passwordSignInEnabled() ? [passwordProvider()] : []),
      ...ssoProviders(),
    ],
    callbacks: {
      signIn({ account, profile }) {
        return account?.type === "oauth" ? admitSsoSignIn(account, profile) : true;
      },
      async jwt({ token, user, account, profile }) {
        if (account?.type === "oauth") return tokenFor(token, await ssoSessionUser(account, profile));
        if (user) return tokenFor(token, user);
        return refreshSessionToken(token);
      },
      session({ session, token }) {
        if (token.unchecked) return { ...session, unchecked: true };
        if (token.uid && token.role) {
          session.user = { id: token.uid, email: token.email ?? "", name: token.name ?? "", role: token.role };
        }
        return session;
      },
    },
    // next-auth's own logger prints whole errors with their stacks; an ended session is expected, and
    // nothing else it reports may carry more than a code and a message.
    logger: {
      error(code, metadata) {
        if (metadata instanceof SessionEndedError) {
          logger.info("session ended", { reason: metadata.reason });
          return;
        }
        const error = metadata instanceof Error ? metadata : (metadata as { error?: unknown } | undefined)?.error;
        // Long opaque values (an OAuth state, a code) are cut out: the message is for telling errors apart.
        const message = error === undefined ? undefined : errorMessage(error).replace(/[\w-]{16,}/g, "[…]");
        logger.error("sign-in error", { code, error: message });
      },
      warn(code) {
        logger.warn("sign-in configuration warning", { code });
      },
      debug() {},
    },
  };
}
