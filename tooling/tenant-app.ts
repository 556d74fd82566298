import http from "node:http";
import type { AddressInfo } from "node:net";

import { Webhook } from "@authsignal/node";

/**
 * A tenant's own application for the demo and the tour, the handler the console forwards to: it verifies
 * X-Signature-V2 with the service's own SDK, exactly as a tenant's code does, and lists what it received at `/`.
 * `failFor` makes it answer 503 for a while, so the console's retries can be seen bringing the events in.
 */

export type TenantAppHandler = { path: string; name: string; serverKeys: readonly string[] };
type Receipt = {
  at: string;
  handler: string;
  eventId: string;
  type: string;
  method: string;
  verified: boolean;
  answered: number;
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function verifies(body: string, header: string | undefined, keys: readonly string[]): boolean {
  if (!header) return false;
  return keys.some((key) => {
    try {
      new Webhook(key).constructEvent(body, header);
      return true;
    } catch {
      return false;
    }
  });
}

function page(receipts: readonly Receipt[], failingUntil: number): string {
  const rows = receipts
    .map(
      (r) =>
        `<tr><td>${escapeHtml(r.at)}</td><td>${escapeHtml(r.handler)}</td><td><code>${escapeHtml(r.eventId)}</code></td><td>${escapeHtml(r.type)}</td>` +
        `<td>${escapeHtml(r.method)}</td><td>${r.verified ? "verified" : "refused"}</td><td>${r.answered}</td></tr>`,
    )
    .join("");
  const state =
    Date.now() < failingUntil
      ? `<p><strong>Down</strong>: answering 503 until ${new Date(failingUntil).toISOString()}.</p>`
      : "<p>Up.</p>";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="5"><title>Tenant app</title>
<style>body{font:14px system-ui;margin:2rem;color-scheme:light dark}td,th{padding:.25rem .6rem;text-align:left}</style></head>
<body><h1>Tenant app: received webhooks</h1>${state}<p>${receipts.length} received, newest first (verified with @authsignal/node).</p>
<table><thead><tr><th>Received</th><th>Handler</th><th>Event id</th><th>Type</th><th>Method</th><th>Signature</th><th>Answered</th></tr></thead><tbody>${rows}</tbody></table></body></html>`;
}

export async function startTenantApp({ port, handlers }: { port: number; handlers: readonly TenantAppHandler[] }) {
  const receipts: Receipt[] = [];
  let failingUntil = 0;
  const server = http.createServer((request, response) => {
    const handler = handlers.find((h) => request.url === h.path);
    if (request.method === "GET" && request.url === "/") {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page(receipts, failingUntil));
      return;
    }
    if (request.method !== "POST" || !handler) {
      response.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const verified = verifies(body, request.headers["x-signature-v2"] as string | undefined, handler.serverKeys);
      const answered = Date.now() < failingUntil ? 503 : verified ? 200 : 401;
      let event: { id?: string; type?: string; data?: { verificationMethod?: string } } = {};
      try {
        event = JSON.parse(body);
      } catch {
        // Kept as unreadable: the row says so.
      }
      receipts.unshift({
        at: new Date().toISOString(),
        handler: handler.name,
        eventId: String(event.id ?? "unreadable"),
        type: String(event.type ?? "?"),
        method: String(event.data?.verificationMethod ?? "—"),
        verified,
        answered,
      });
      receipts.length = Math.min(receipts.length, 500);
      response
        .writeHead(answered, { "content-type": "application/json" })
        .end(JSON.stringify({ ok: answered === 200 }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    receipts,
    /** Answers 503 to every delivery for `ms`. */
    failFor: (ms: number) => (failingUntil = Date.now() + ms),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TenantApp = Awaited<ReturnType<typeof startTenantApp>>;
