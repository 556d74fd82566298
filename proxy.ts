import { getToken } from "next-auth/jwt";
import { NextResponse, type NextRequest } from "next/server";

import { hasRole, roleForPath, type Role } from "@/lib/auth/roles";
import { env } from "@/lib/env";
import { strictTransportSecurity } from "@/lib/transport-security";
import { notAWebhookUrl } from "@/lib/webhooks/errors";

const WEBHOOK_PATH_PREFIX = "/api/webhooks/";
const PUBLIC_PATHS = [
  "/sign-in",
  "/set-password",
  "/access-denied",
  "/api/auth",
  "/api/health",
  "/api/ready",
  "/api/openapi.json",
  WEBHOOK_PATH_PREFIX,
];

function contentSecurityPolicy(nonce: string): string {
  const dev = env().NODE_ENV === "development";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

function decodes(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/**
 * Every answer of the proxy (pages, redirects, refusals) carries Strict-Transport-Security when the console is
 * https.
 */
export async function proxy(request: NextRequest) {
  const response = await answer(request);
  const hsts = strictTransportSecurity(env().NEXTAUTH_URL);
  if (hsts) response.headers.set("Strict-Transport-Security", hsts);
  return response;
}

/**
 * Sets a per-request CSP nonce, sends signed-out visitors to the sign-in page and answers a section the role may not
 * use with /access-denied. A convenience, never the only check: every page, action and route handler checks the
 * session itself (ARCHITECTURE.md, rule 1).
 */
async function answer(request: NextRequest): Promise<NextResponse | Response> {
  const { pathname, search } = request.nextUrl;
  // next.config.js turns Next's own trailing-slash redirect off so that a webhook URL pasted with a slash
  // still reaches the receiver (the service does not follow redirects); every other path keeps it.
  // Next answers a path it cannot decode (`%E0%A4%A`) with a bare 500; a webhook URL answers JSON.
  if (pathname.startsWith(WEBHOOK_PATH_PREFIX) && !decodes(pathname)) return notAWebhookUrl();
  if (pathname.length > 1 && pathname.endsWith("/") && !pathname.startsWith(WEBHOOK_PATH_PREFIX)) {
    // A plain URL: NextURL would put the slash back when it formats itself.
    const url = new URL(request.url);
    url.pathname = pathname.replace(/\/+$/, "") || "/";
    return NextResponse.redirect(url, 308);
  }
  const isPublic = PUBLIC_PATHS.some((p) => pathname === p || pathname.startsWith(p.endsWith("/") ? p : `${p}/`));

  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const csp = contentSecurityPolicy(nonce);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", csp);
  let response = NextResponse.next({ request: { headers: requestHeaders } });

  if (!isPublic && !pathname.startsWith("/api/")) {
    const token = await getToken({ req: request, secret: env().NEXTAUTH_SECRET });
    if (!token) {
      const signIn = new URL("/sign-in", request.url);
      if (pathname !== "/") signIn.searchParams.set("callbackUrl", `${pathname}${search}`);
      return NextResponse.redirect(signIn);
    }
    // A streamed page can no longer change its status, so a section the role may not use is answered 403 here
    // (app/forbidden.tsx draws the console's frame around it); the page's own requireRole() still refuses it if
    // the role changed since.
    if (!token.role || !hasRole(token.role as Role, roleForPath(pathname))) {
      response = NextResponse.rewrite(new URL("/access-denied", request.url), { request: { headers: requestHeaders } });
    }
  }

  response.headers.set("Content-Security-Policy", csp);
  if (!isPublic) response.headers.set("Cache-Control", "no-store");
  return response;
}

export const config = {
  matcher: [
    // Webhook URLs stay out: Next buffers a request's whole body for a proxy before the route runs, and a
    // receiver answers an unknown token (or a bad path) without reading the body at all.
    "/((?!_next/static|_next/image|favicon.ico|icon.svg|api/webhooks/).*)",
    // …except a webhook path with a `%`, which Next may fail to decode (a bare 500): answered here.
    "/api/webhooks/:rest(.*%.*)",
  ],
};
