/** What the forwarding tests share: a real local receiver (the tenant's own handler) and ways to queue events. */
import http from "node:http";
import type { AddressInfo } from "node:net";

import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll } from "vitest";

import { getDb, type Database } from "@/lib/db";
import { forwardDeliveries } from "@/lib/db/forwarding-schema";
import type { OutboundPolicy } from "@/lib/outbound/address-policy";
import { setUpTestDatabase } from "@/lib/testing/database";
import { expiredEvent, insertTestConnection, webhookRequest } from "@/lib/testing/webhooks";
import { receiveWebhook } from "@/lib/webhooks/receive";
import { KEY1 } from "@/lib/webhooks/test-helpers";

import { createDestination } from "./destinations";

/** The tests' destinations listen on 127.0.0.1, which this policy allows over http. */
export const LOCAL_POLICY: OutboundPolicy = { allowedHosts: ["127.0.0.1"] };

export type Received = { headers: http.IncomingHttpHeaders; body: string };

/**
 * A tenant's handler on 127.0.0.1: keeps what it receives and answers what `answer` says (200 unless told),
 * `delayMs` after the request ended (at once unless told; never for Infinity).
 */
export async function startReceiver(answer: (received: Received) => number = () => 200) {
  const received: Received[] = [];
  const state = { answer, delayMs: 0 };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry = { headers: request.headers, body: Buffer.concat(chunks).toString("utf8") };
      received.push(entry);
      const status = state.answer(entry);
      const reply = () => {
        response.writeHead(
          status,
          status >= 300 && status < 400
            ? { location: "http://127.0.0.1:9/elsewhere" }
            : { "content-type": "text/plain" },
        );
        response.end(status < 300 ? "ok" : `refused with ${status}`);
      };
      if (state.delayMs === 0) reply();
      else if (Number.isFinite(state.delayMs)) setTimeout(reply, state.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answerWith: (next: (received: Received) => number) => (state.answer = next),
    answerAfter: (delayMs: number) => (state.delayMs = delayMs),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Receives a signed authenticator.expired event through the real receiver, as the service sends it. */
export async function receiveEvent(
  token: string,
  keys: readonly string[],
  overrides: Parameters<typeof expiredEvent>[0] = {},
) {
  const event = expiredEvent(overrides);
  const response = await receiveWebhook(webhookRequest(token, event, { keys }));
  if (response.status !== 200) throw new Error(`the receiver answered ${response.status}`);
  return event;
}

/** A connection with a destination to `url` for each name (signed by the service). */
export async function destinationsTo(url: string, names: string[]) {
  const connection = await insertTestConnection(`Forwarding ${crypto.randomUUID()}`, [KEY1]);
  const ids: string[] = [];
  for (const name of names) {
    const created = await createDestination(
      { id: null, email: "admin@example.com" },
      { connectionId: connection.id, name, url, signing: "service", eventTypes: [], verificationMethods: [] },
      LOCAL_POLICY,
    );
    if (!created.ok) throw new Error(created.error);
    ids.push(created.id);
  }
  return { connection, ids };
}

export async function deliveriesOf(destinationId: string) {
  const db = await getDb();
  return db
    .select()
    .from(forwardDeliveries)
    .where(eq(forwardDeliveries.destinationId, destinationId))
    .orderBy(forwardDeliveries.id);
}

/**
 * Makes every pending delivery due now, as if its wait (a retry's, a lease's, a tripped breaker's probe's) had passed.
 */
export async function makeDueNow(): Promise<void> {
  const db = await getDb();
  await db.execute(
    sql`update forward_deliveries set due_at = now() - interval '1 second', leased_until = null where state = 'pending'`,
  );
  await db.execute(
    sql`update forward_destinations set probe_at = now() - interval '1 second', rate_next_at = null where tripped_at is not null or rate_next_at is not null`,
  );
}

/**
 * A forwarding test file's ground: a fresh database and a receiver (both ready in the tests, through
 * the object answered), each test starting with nothing due and nothing received; `afterEachTest` clears more.
 */
export function setUpForwardingFile(afterEachTest?: (db: Database) => Promise<unknown>) {
  const bed = {} as { db: Database; receiver: Awaited<ReturnType<typeof startReceiver>> };
  let tearDown: () => Promise<void>;
  beforeAll(async () => {
    ({ db: bed.db, tearDown } = await setUpTestDatabase());
    bed.receiver = await startReceiver();
  });
  afterAll(async () => {
    await bed.receiver.close();
    await tearDown();
  });
  afterEach(async () => {
    await bed.db.execute(
      sql`update forward_deliveries set state = 'cancelled', leased_until = null where state = 'pending'`,
    );
    await afterEachTest?.(bed.db);
    bed.receiver.received.length = 0;
    bed.receiver.answerWith(() => 200);
    bed.receiver.answerAfter(0);
  });
  return bed;
}
