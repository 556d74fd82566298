import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { describe, expect, it } from "vitest";

import { RedactingSpanProcessor, safeOrigin, safeTarget } from "./redact";

describe("what Next's spans keep of a URL", () => {
  it.each([
    ["/webhooks?userId=usr_alice&q=alice%40example.com", "/webhooks"],
    ["/api/webhooks/AbCdEfGhIjKlMnOpQrStUvWx", "/api/webhooks/…"],
    ["/api/end-users/usr_alice", "/api/end-users/…"],
    ["/connections/6f1c2a1e-8b4d-4c7a-9e21-5d0f7a9b1c01#keys", "/connections/6f1c2a1e-8b4d-4c7a-9e21-5d0f7a9b1c01"],
  ])("keeps the path %s as %s", (target, kept) => {
    expect(safeTarget(target)).toBe(kept);
  });

  it("keeps a URL's origin only: no userinfo, path or query", () => {
    expect(safeOrigin("https://user:pass@hooks.example.com:8443/T0/B1/secret?token=abc")).toBe(
      "https://hooks.example.com:8443",
    );
    expect(safeOrigin("not a url")).toBe("(not a URL)");
  });
});

describe("the redacting span processor", () => {
  it("rewrites Next's request and fetch spans as they start, before any processor exports them", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({
      spanProcessors: [new RedactingSpanProcessor(), new SimpleSpanProcessor({ exporter })],
    });
    const tracer = provider.getTracer("next.js");
    const url = "https://service.example.com/v1/users/usr_alice/authenticators?x=1";
    tracer.startSpan("POST", { attributes: { "http.target": "/api/webhooks/AbCdEfGhIjKlMnOpQrStUvWx" } }).end();
    tracer.startSpan(`fetch GET ${url}`, { attributes: { "http.url": url } }).end();
    await provider.forceFlush();
    const [request, fetch] = exporter.getFinishedSpans();
    expect(request!.attributes["http.target"]).toBe("/api/webhooks/…");
    expect({ name: fetch!.name, url: fetch!.attributes["http.url"] }).toEqual({
      name: "fetch GET https://service.example.com",
      url: "https://service.example.com",
    });
    await provider.shutdown();
  });

  it("does the same under the newer HTTP conventions' names (url.path, url.full, url.query)", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({
      spanProcessors: [new RedactingSpanProcessor(), new SimpleSpanProcessor({ exporter })],
    });
    const url = "https://user:pass@service.example.com/v1/users/usr_alice?x=1";
    provider
      .getTracer("next.js")
      .startSpan(`GET ${url}`, {
        attributes: { "url.path": "/api/end-users/usr_alice", "url.full": url, "url.query": "userId=usr_alice" },
      })
      .end();
    await provider.forceFlush();
    const [span] = exporter.getFinishedSpans();
    expect({ name: span!.name, ...span!.attributes }).toEqual({
      name: "GET https://service.example.com",
      "url.path": "/api/end-users/…",
      "url.full": "https://service.example.com",
      "url.query": "(left out)",
    });
    await provider.shutdown();
  });
});
