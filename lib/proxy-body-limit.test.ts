import type { IncomingMessage } from "node:http";
import path from "node:path";
import { Readable } from "node:stream";

import type { NextConfig } from "next";
import { getCloneableBody } from "next/dist/server/body-streams";
import { describe, expect, it, vi } from "vitest";

import { MAX_WEBHOOK_BODY_BYTES } from "@/lib/webhooks/receive";

// Imported by path: next.config.js is plain JavaScript, outside the type-checked sources.
const nextConfig = ((await import(/* @vite-ignore */ path.resolve("next.config.js"))) as { default: NextConfig })
  .default;
const limit = nextConfig.experimental?.proxyClientMaxBodySize;

/**
 * A request body as Next's server handles it when proxy.ts runs for the path: the proxy gets a copy of at
 * most `limit` bytes, and the route then reads the buffered body in place of the original stream.
 */
async function throughTheProxy(size: number): Promise<{ proxyCopy: number; routeReads: number }> {
  // In 64 KiB chunks, as a socket delivers them.
  const chunks = Array.from({ length: Math.ceil(size / 65_536) }, (_, i) =>
    Buffer.alloc(Math.min(65_536, size - i * 65_536), "a"),
  );
  // What of an IncomingMessage getCloneableBody uses: a readable stream and its url.
  const request = Object.assign(Readable.from(chunks), { url: "/sign-in" }) as Readable & IncomingMessage;
  const body = getCloneableBody(request, limit as number);
  const proxyCopy = Buffer.concat(await body.cloneBodyStream().toArray()).length;
  await body.finalize();
  const routeReads = Buffer.concat(await request.toArray()).length;
  return { proxyCopy, routeReads };
}

describe("the proxy's body limit (next.config.js experimental.proxyClientMaxBodySize)", () => {
  it("is what the webhook receiver accepts, not Next's 10 MB default", () => {
    expect(limit).toBe(MAX_WEBHOOK_BODY_BYTES);
  });

  it("lets a body of exactly that size through whole, so a webhook URL the proxy runs for (one with a %) gets all of it", async () => {
    expect(await throughTheProxy(MAX_WEBHOOK_BODY_BYTES)).toEqual({
      proxyCopy: MAX_WEBHOOK_BODY_BYTES,
      routeReads: MAX_WEBHOOK_BODY_BYTES,
    });
  });

  it("holds no more than that of a larger body in memory", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      expect(await throughTheProxy(4 * 1024 * 1024)).toEqual({
        proxyCopy: MAX_WEBHOOK_BODY_BYTES,
        routeReads: MAX_WEBHOOK_BODY_BYTES,
      });
      expect(warn).toHaveBeenCalledWith(expect.stringContaining("Request body exceeded 256KB for /sign-in"));
    } finally {
      warn.mockRestore();
    }
  });
});
