import "server-only";

import crypto from "node:crypto";

import { jwtVerify, SignJWT } from "jose";

import { env } from "@/lib/env";

import { attemptKey, KNOWN_GOOD_MS } from "./throttle";

/*
 * OWASP's device cookie: a browser that signed in to an email gets a signed cookie (a digest of the email and a
 * random id), which spares its attempts the email's back-off (./throttle.ts) until a few of them fail, so guesses
 * from elsewhere cannot keep the user out (docs/sign-in-and-teams.md, "Sign-in throttling").
 */

const AUDIENCE = "tenant-console/device-cookie";
export const DEVICE_COOKIE_MAX_AGE_SECONDS = KNOWN_GOOD_MS / 1000;
/** Sent only to the password callback: nothing else has a use for it. */
const DEVICE_COOKIE_PATH = "/api/auth/callback/credentials";

// Its own key, derived from the session secret, so a session token can never pass for a device cookie.
let signingKey: Uint8Array | undefined;
const key = () => (signingKey ??= new Uint8Array(crypto.hkdfSync("sha256", env().NEXTAUTH_SECRET, "", AUDIENCE, 32)));

const emailDigest = (email: string) => crypto.createHash("sha256").update(attemptKey(email)).digest("base64url");

/** A new device cookie value for a browser that just signed in to `email` with its password. */
export function issueDeviceToken(email: string, now = new Date()): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT()
    .setProtectedHeader({ alg: "HS256" })
    .setAudience(AUDIENCE)
    .setSubject(emailDigest(email))
    .setJti(crypto.randomUUID())
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + DEVICE_COOKIE_MAX_AGE_SECONDS)
    .sign(key());
}

/** The device id of a cookie value signed by this console for `email` and not expired; else null. */
export async function deviceOf(token: string | undefined, email: string, now = new Date()): Promise<string | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, key(), {
      algorithms: ["HS256"],
      audience: AUDIENCE,
      subject: emailDigest(email),
      currentDate: now,
    });
    return typeof payload.jti === "string" ? payload.jti : null;
  } catch {
    return null;
  }
}

/** `__Secure-` (and so Secure) whenever the console is served over https, as next-auth names its own. */
export function deviceCookieName(): string {
  return env().NEXTAUTH_URL.startsWith("https://") ? "__Secure-console.device" : "console.device";
}

/** The Set-Cookie value for a device token (a JWS: only URL-safe characters and dots, no escaping needed). */
export function deviceCookieHeader(token: string): string {
  const secure = env().NEXTAUTH_URL.startsWith("https://") ? "; Secure" : "";
  return `${deviceCookieName()}=${token}; Path=${DEVICE_COOKIE_PATH}; Max-Age=${DEVICE_COOKIE_MAX_AGE_SECONDS}; HttpOnly; SameSite=Strict${secure}`;
}
