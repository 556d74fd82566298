/**
 * Strict-Transport-Security (RFC 6797) for the console's responses. Set by proxy.ts at request time, not in
 * next.config.js: Next evaluates `headers()` at build time, and NEXTAUTH_URL belongs to the running server.
 */

/** Two years, the span browsers' preload lists ask for; a browser renews it on every visit. */
const MAX_AGE_SECONDS = 2 * 365 * 24 * 60 * 60;

/**
 * The header's value when the console's public URL (NEXTAUTH_URL) is https: a browser that has reached it
 * once then refuses plain http to that host (and its subdomains), so a later http:// link or a network
 * that strips TLS cannot expose the session cookie. None for an http URL (the demo, the tests on
 * 127.0.0.1): a browser ignores the header over http anyway, and the host may serve other things on http.
 */
export function strictTransportSecurity(publicUrl: string): string | undefined {
  return new URL(publicUrl).protocol === "https:" ? `max-age=${MAX_AGE_SECONDS}; includeSubDomains` : undefined;
}
