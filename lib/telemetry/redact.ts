import type { Span, SpanProcessor } from "@opentelemetry/sdk-trace";

/**
 * Paths whose rest is a secret or a person: a connection's webhook URL token, an end user's id (the erasure route).
 * Next's request span records the path it served (`http.target`), so it is cut here before any span is exported.
 */
const MASKED_PATHS = ["/api/webhooks/", "/api/end-users/"];

/** A served path without its query (the log's filters may name a user or an email), its secret part masked. */
export function safeTarget(target: string): string {
  const path = target.split(/[?#]/, 1)[0]!;
  const masked = MASKED_PATHS.find((prefix) => path.startsWith(prefix));
  return masked ? `${masked}…` : path;
}

/** A URL's origin only: its path or query may hold a token, its userinfo a password. */
export function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "(not a URL)";
  }
}

/** The attributes that hold a served path, a whole URL or a query: the older HTTP conventions' names and the newer. */
const PATH_KEYS = ["http.target", "url.path"];
const URL_KEYS = ["http.url", "url.full"];
const QUERY_KEYS = ["url.query"];

/**
 * Rewrites what Next's own spans record of URLs as each span starts (its attributes are set then), under the older
 * HTTP conventions' names and the newer ones alike: a served path by `safeTarget`, a whole URL (and the span's name,
 * which may repeat it) by its origin, a query left out.
 */
export class RedactingSpanProcessor implements SpanProcessor {
  onStart(span: Span): void {
    for (const key of PATH_KEYS) {
      const path = span.attributes[key];
      if (typeof path === "string") span.setAttribute(key, safeTarget(path));
    }
    for (const key of URL_KEYS) {
      const url = span.attributes[key];
      if (typeof url !== "string") continue;
      const origin = safeOrigin(url);
      span.setAttribute(key, origin);
      if (span.name.includes(url)) span.updateName(span.name.replace(url, origin));
    }
    for (const key of QUERY_KEYS) if (typeof span.attributes[key] === "string") span.setAttribute(key, "(left out)");
  }
  onEnd(): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
