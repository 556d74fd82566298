import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { env } from "@/lib/env";
import type { Role } from "./roles";
import { attemptSignIn } from "./sign-in";
import { admitSsoSignIn, ssoProviders, ssoSessionUser } from "./sso";

export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

declare module "next-auth" {
  interface Session {
    user: { id: string; email: string; name: string; role: Role };
  }
  interface User {
    role: Role;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    uid?: string;
    role?: Role;
  }
}

/**
 * The client address as seen by the nearest proxy: the right-most X-Forwarded-For entry
 * (Next's own server appends the socket address), so a client cannot pick its own throttle key.
 */
export function clientIp(headers: Record<string, string | string[] | undefined> | undefined): string {
  const raw = headers?.["x-forwarded-for"];
  const value = Array.isArray(raw) ? raw.join(",") : raw;
  const last = value?.split(",").map((s) => s.trim()).filter(Boolean).pop();
  return last?.slice(0, 64) || "unknown";
}

export function authOptions(): NextAuthOptions {
  return {
    secret: env().NEXTAUTH_SECRET,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          const result = await attemptSignIn(credentials, clientIp(req?.headers));
          if (!result.ok) throw new Error(result.message);
          return result.user;
        },
      }),
      ...ssoProviders(),
    ],
    callbacks: {
      signIn({ account, profile }) {
        return account?.type === "oauth" ? admitSsoSignIn(account, profile) : true;
      },
      async jwt({ token, user, account, profile }) {
        if (account?.type === "oauth") {
          const ssoUser = await ssoSessionUser(account, profile);
          token.uid = ssoUser.id;
          token.role = ssoUser.role;
          token.email = ssoUser.email;
          token.name = ssoUser.name;
        } else if (user) {
          token.uid = user.id;
          token.role = user.role;
        }
        return token;
      },
      session({ session, token }) {
        if (token.uid && token.role) {
          session.user = { id: token.uid, email: token.email ?? "", name: token.name ?? "", role: token.role };
        }
        return session;
      },
    },
  };
}
