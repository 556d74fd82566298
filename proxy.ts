import { getToken } from "next-auth/jwt";
import { NextResponse, type NextRequest } from "next/server";
import { hasRole, roleForPath, type Role } from "@/lib/auth/roles";
import { env } from "@/lib/env";

const PUBLIC_PATHS = ["/sign-in", "/access-denied", "/api/auth", "/api/health", "/api/webhooks/"];

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

/**
 * Sets a per-request CSP nonce and sends signed-out visitors to the sign-in page.
 * This is a convenience, never the only check: every page, action and route handler
 * calls requireUser()/requireRole() itself.
 */
export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
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
    // A streamed page can no longer change its status, so a section the role may not use is
    // answered 403 here; the page's own requireRole() still refuses it if the role changed since.
    if (!token.role || !hasRole(token.role as Role, roleForPath(pathname))) {
      response = NextResponse.rewrite(new URL("/access-denied", request.url), { request: { headers: requestHeaders } });
    }
  }

  response.headers.set("Content-Security-Policy", csp);
  if (!isPublic) response.headers.set("Cache-Control", "no-store");
  return response;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
