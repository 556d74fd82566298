/**
 * Strict-Transport-Security (RFC 6797) for the console's responses. Set by proxy.ts at request time, not in
 * next.config.js: Next evaluates `headers()` at build time, and NEXTAUTH_URL belongs to the running server.
 */

/** Two years, the span browsers' preload lists ask for; a browser renews it on every visit. */
const MAX_AGE_SECONDS = 2 * 365 * 24 * 60 * 60;

/**
 * The header's value when the public URL (NEXTAUTH_URL) is https: a browser that reached it once then refuses plain
 * http to that host and its subdomains, so a stripped TLS cannot expose the session cookie. None for an http URL (the
 * demo, the tests): a browser ignores it over http, and the host may serve other things there.
 */
export function strictTransportSecurity(publicUrl: string): string | undefined {
  return new URL(publicUrl).protocol === "https:" ? `max-age=${MAX_AGE_SECONDS}; includeSubDomains` : undefined;
}
