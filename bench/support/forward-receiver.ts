/**
 * A tenant's handler for the forwarding checks: verifies each forward's X-Signature-V2, counts each event id, notes
 * one that arrives while an attempt of it is still in flight (the outbox must never send a delivery twice at once),
 * and can answer 503 for a while ("down").
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

import { verifyWebhookSignature } from "@/lib/webhooks/signature";

export type ForwardReceiver = Awaited<ReturnType<typeof startForwardReceiver>>;

export async function startForwardReceiver({ answerDelayMs = 0 }: { answerDelayMs?: number } = {}) {
  /** Attempts answered 200, by event id. */
  const delivered = new Map<string, number>();
  /** When the last event not delivered before arrived (the end of a drain). */
  let lastNewDeliveryAt = 0;
  /** When each forward arrived (its request's end), in order: a destination's rate as it sees it. */
  const arrivals: number[] = [];
  const inFlight = new Set<string>();
  const problems: string[] = [];
  const keys: string[] = [];
  let downUntil = 0;
  let refusedWhileDown = 0;

  const answer = (response: http.ServerResponse, id: string, status: number) => {
    inFlight.delete(id);
    response.writeHead(status, { "content-type": "application/json" }).end(status === 200 ? "{}" : '{"error":"down"}');
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const id = String(request.headers["webhook-id"] ?? "");
      arrivals.push(Date.now());
      if (inFlight.has(id)) problems.push(`event ${id}: sent again while an attempt was still in flight`);
      inFlight.add(id);
      if (Date.now() < downUntil) {
        refusedWhileDown += 1;
        setTimeout(() => answer(response, id, 503), answerDelayMs);
        return;
      }
      if (!verifyWebhookSignature(Buffer.concat(chunks), String(request.headers["x-signature-v2"] ?? ""), keys).ok) {
        problems.push(`event ${id}: a forward failed the service's signature check`);
      }
      if (!delivered.has(id)) lastNewDeliveryAt = Date.now();
      delivered.set(id, (delivered.get(id) ?? 0) + 1);
      setTimeout(() => answer(response, id, 200), answerDelayMs);
    });
  });
  // Each forward opens its own connection (the guarded client pools nothing): room for a burst of them.
  server.maxConnections = 10_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", 511, resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    delivered,
    lastNewDeliveryAt: () => lastNewDeliveryAt,
    problems,
    /** Server keys whose signatures it accepts (the connections forwarding to it). */
    acceptKeys: (...more: string[]) => keys.push(...more),
    /** Answers 503 to every forward for `ms`. */
    goDown: (ms: number) => (downUntil = Date.now() + ms),
    refusedWhileDown: () => refusedWhileDown,
    /** The most forwards that arrived within any one second. */
    mostInOneSecond: () => {
      let most = 0;
      for (let first = 0, last = 0; last < arrivals.length; last++) {
        while (arrivals[last]! - arrivals[first]! >= 1_000) first++;
        most = Math.max(most, last - first + 1);
      }
      return most;
    },
    /** Forgets what it received (between runs); keys are kept. */
    reset: () => {
      delivered.clear();
      lastNewDeliveryAt = 0;
      arrivals.length = 0;
      problems.length = 0;
      refusedWhileDown = 0;
    },
    /** Ids delivered more than once (at least once allows it; never at the same time). */
    deliveredTwice: () => [...delivered.values()].filter((n) => n > 1).length,
    /** Waits until `done()` holds, for at most `timeoutMs`; answers whether it did. */
    waitUntil: async (done: () => boolean, timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      return done();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A handler that takes every forward and never answers: each attempt to it lasts the attempt's whole limit. Notes
 * when each request arrived.
 */
export async function startHangingHandler() {
  const arrivals: number[] = [];
  const server = http.createServer(() => arrivals.push(Date.now()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", 511, resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hangs`,
    arrivals,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
