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

/**
 * Rewrites what Next's own spans record of URLs as each span starts (its attributes are set then): the served path
 * (`http.target`) by `safeTarget`, a fetch's URL (`http.url`, and the span's name, which repeats it) by its origin.
 */
export class RedactingSpanProcessor implements SpanProcessor {
  onStart(span: Span): void {
    const target = span.attributes["http.target"];
    if (typeof target === "string") span.setAttribute("http.target", safeTarget(target));
    const url = span.attributes["http.url"];
    if (typeof url === "string") {
      const origin = safeOrigin(url);
      span.setAttribute("http.url", origin);
      if (span.name.includes(url)) span.updateName(span.name.replace(url, origin));
    }
  }
  onEnd(): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
