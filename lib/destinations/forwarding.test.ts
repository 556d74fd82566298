import { Webhook as ServiceWebhook } from "@authsignal/node";
import { eq, sql } from "drizzle-orm";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import type { Database } from "@/lib/db";
import { forwardAttempts, forwardDestinations } from "@/lib/db/forwarding-schema";
import { auditLog } from "@/lib/db/schema";
import { setUpTestDatabase } from "@/lib/testing/database";
import { insertTestConnection } from "@/lib/testing/webhooks";
import { KEY1, KEY2 } from "@/lib/webhooks/test-helpers";

import { EVENT_ID_HEADER, MAX_ATTEMPTS, retryDelaySeconds } from "./constants";
import { createDestination, rotateDestinationSecret, setDestinationEnabled } from "./destinations";
import { takeDueDeliveries } from "./outbox";
import { deliveriesOf, LOCAL_POLICY, makeDueNow, receiveEvent, startReceiver } from "./test-helpers";
import { forwardDueDeliveries } from "./worker";

// Forwarding end to end on a real database: the receiver queues, a worker pass sends to a real local
// handler that verifies as the tenant's own code would (the service's SDK, or Standard Webhooks).

const admin = { id: null, email: "admin@example.com" };
let db: Database;
let tearDown: () => Promise<void>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await tearDown();
});
// Each test starts with nothing due and nothing received: what one test queued is never another's.
afterEach(async () => {
  await db.execute(sql`update forward_deliveries set state = 'cancelled' where state = 'pending'`);
  receiver.received.length = 0;
  receiver.answerWith(() => 200);
});

async function destinationFor(
  serverKeys: readonly string[],
  input: Partial<Parameters<typeof createDestination>[1]> = {},
) {
  const connection = await insertTestConnection(`Forwarding ${crypto.randomUUID()}`, serverKeys);
  const created = await createDestination(
    admin,
    {
      connectionId: connection.id,
      name: "Tenant app",
      url: receiver.url,
      signing: "service",
      eventTypes: [],
      verificationMethods: [],
      ...input,
    },
    LOCAL_POLICY,
  );
  if (!created.ok) throw new Error(created.error);
  return { connection, destination: created };
}

/** Worker passes until nothing is due. */
async function drain() {
  while ((await forwardDueDeliveries(LOCAL_POLICY)) > 0);
}

describe("forwarding as the service", () => {
  it("sends the exact stored body, re-signed so the service's SDK verifier accepts it, with the event id in webhook-id", async () => {
    const { connection } = await destinationFor([KEY1]);
    const event = await receiveEvent(connection.token, [KEY1], { data: { email: "jane@example.com" } });
    await drain();
    expect(receiver.received).toHaveLength(1);
    const [forwarded] = receiver.received;
    expect(forwarded!.body).toBe(JSON.stringify(event));
    expect(forwarded!.headers[EVENT_ID_HEADER]).toBe(event.id);
    const verified = new ServiceWebhook(KEY1).constructEvent(
      forwarded!.body,
      String(forwarded!.headers["x-signature-v2"]),
    );
    expect(verified.id).toBe(event.id);
  });

  it("signs with both server keys while two are held, so a handler on either key accepts it", async () => {
    const { connection } = await destinationFor([KEY1, KEY2]);
    await receiveEvent(connection.token, [KEY1]);
    await drain();
    const header = String(receiver.received[0]!.headers["x-signature-v2"]);
    expect(header.match(/v2=/g)).toHaveLength(2);
    for (const key of [KEY1, KEY2])
      expect(() => new ServiceWebhook(key).constructEvent(receiver.received[0]!.body, header)).not.toThrow();
  });

  it("queues only for destinations that take the event: type and method filters, off, and never the console's own test events", async () => {
    const { connection, destination } = await destinationFor([KEY1], { verificationMethods: ["SMS"] });
    const other = await createDestination(
      admin,
      {
        connectionId: connection.id,
        name: "Created only",
        url: receiver.url,
        signing: "service",
        eventTypes: ["authenticator.created"],
        verificationMethods: [],
      },
      LOCAL_POLICY,
    );
    const off = await createDestination(
      admin,
      {
        connectionId: connection.id,
        name: "Off",
        url: receiver.url,
        signing: "service",
        eventTypes: [],
        verificationMethods: [],
      },
      LOCAL_POLICY,
    );
    if (!other.ok || !off.ok) throw new Error("not created");
    await setDestinationEnabled(admin, { connectionId: connection.id, destinationId: off.id, enabled: false });

    await receiveEvent(connection.token, [KEY1], { data: { verificationMethod: "PUSH" } });
    const sms = await receiveEvent(connection.token, [KEY1], { data: { verificationMethod: "SMS" } });
    await receiveEvent(connection.token, [KEY1], {
      id: `console-test-${crypto.randomUUID()}`,
      data: { verificationMethod: "SMS" },
    });
    expect((await deliveriesOf(destination.id)).map((d) => d.eventId)).toEqual([sms.id]);
    expect(await deliveriesOf(other.id)).toEqual([]);
    expect(await deliveriesOf(off.id)).toEqual([]);
  });

  it("queues an event once however often the service delivers it", async () => {
    const { connection, destination } = await destinationFor([KEY1]);
    const event = await receiveEvent(connection.token, [KEY1]);
    await receiveEvent(connection.token, [KEY1], { id: event.id });
    expect(await deliveriesOf(destination.id)).toHaveLength(1);
  });
});

describe("Standard Webhooks signing", () => {
  it("signs with the destination's secret, shown once, and with the previous one too for a day after a rotation", async () => {
    // Verified events: one the console could not verify reaches only a destination that asked (verification.test.ts).
    const { connection, destination } = await destinationFor([KEY1], { signing: "standard_webhooks" });
    expect(destination.secret).toMatch(/^whsec_/);
    const first = await receiveEvent(connection.token, [KEY1]);
    await drain();
    const headersOf = (index: number) => receiver.received[index]!.headers as Record<string, string>;
    expect(new StandardWebhook(destination.secret!).verify(receiver.received[0]!.body, headersOf(0))).toMatchObject({
      id: first.id,
    });
    expect(headersOf(0)["webhook-id"]).toBe(first.id);

    const rotated = await rotateDestinationSecret(admin, {
      connectionId: connection.id,
      destinationId: destination.id,
    });
    if (!rotated.ok) throw new Error(rotated.error);
    await receiveEvent(connection.token, [KEY1]);
    await drain();
    for (const secret of [destination.secret!, rotated.secret!])
      expect(() => new StandardWebhook(secret).verify(receiver.received[1]!.body, headersOf(1))).not.toThrow();
  });
});

describe("attempts and retries", () => {
  it("records a failed answer in words, retries after about 30 s, and delivers on a later attempt", async () => {
    const { connection, destination } = await destinationFor([KEY1]);
    await receiveEvent(connection.token, [KEY1]);
    receiver.answerWith(() => 500);
    await drain();
    const [waiting] = await deliveriesOf(destination.id);
    expect(waiting).toMatchObject({ state: "pending", attempts: 1, lastOutcome: "answered 500" });
    const waitSeconds = (waiting!.dueAt.getTime() - Date.now()) / 1000;
    expect(waitSeconds).toBeGreaterThan(20);
    expect(waitSeconds).toBeLessThan(40);
    const [row] = await db.select().from(forwardDestinations).where(eq(forwardDestinations.id, destination.id));
    expect(row!.failingSince).not.toBeNull();

    receiver.answerWith(() => 302);
    await makeDueNow();
    await drain();
    expect((await deliveriesOf(destination.id))[0]!.lastOutcome).toMatch(/redirect \(not followed/);

    receiver.answerWith(() => 204);
    await makeDueNow();
    await drain();
    expect(await deliveriesOf(destination.id)).toMatchObject([{ state: "delivered", attempts: 3 }]);
    const attempts = await db
      .select()
      .from(forwardAttempts)
      .where(eq(forwardAttempts.destinationId, destination.id))
      .orderBy(forwardAttempts.id);
    expect(attempts.map((a) => [a.status, a.ok])).toEqual([
      [500, false],
      [302, false],
      [204, true],
    ]);
    expect(attempts[0]!.responseBody).toBe("refused with 500");
    const [after] = await db.select().from(forwardDestinations).where(eq(forwardDestinations.id, destination.id));
    expect(after!.failingSince).toBeNull();
  });

  it("gives up after the last attempt of the schedule", async () => {
    const { connection, destination } = await destinationFor([KEY1]);
    await receiveEvent(connection.token, [KEY1]);
    receiver.answerWith(() => 503);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      await makeDueNow();
      await drain();
    }
    expect(await deliveriesOf(destination.id)).toMatchObject([{ state: "failed", attempts: MAX_ATTEMPTS }]);
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
  });

  it("spreads retries ±20 % around the schedule", () => {
    expect(retryDelaySeconds(1, () => 0)).toBe(24);
    expect(retryDelaySeconds(1, () => 1)).toBe(36);
    expect(retryDelaySeconds(6, () => 0.5)).toBe(12 * 3600);
  });

  it("pauses a destination failing for 24 h, with an audit record; events still queue, and resuming sends them", async () => {
    const { connection, destination } = await destinationFor([KEY1]);
    await db
      .update(forwardDestinations)
      .set({ failingSince: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(forwardDestinations.id, destination.id));
    await receiveEvent(connection.token, [KEY1]);
    receiver.answerWith(() => 500);
    await drain();
    const [paused] = await db.select().from(forwardDestinations).where(eq(forwardDestinations.id, destination.id));
    expect(paused!.pausedAt).not.toBeNull();
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "destination.paused"))
      .orderBy(sql`${auditLog.id} desc`)
      .limit(1);
    expect(audit).toMatchObject({ target: "Tenant app", connectionId: connection.id, actorId: null });

    receiver.answerWith(() => 200);
    await receiveEvent(connection.token, [KEY1]);
    await makeDueNow();
    await drain();
    expect(receiver.received).toHaveLength(1);
    expect(await deliveriesOf(destination.id)).toHaveLength(2);

    expect(
      await setDestinationEnabled(admin, { connectionId: connection.id, destinationId: destination.id, enabled: true }),
    ).toEqual({ ok: true });
    await makeDueNow();
    await drain();
    expect((await deliveriesOf(destination.id)).map((d) => d.state)).toEqual(["delivered", "delivered"]);
  });
});

describe("the outbox", () => {
  it("never hands one delivery to two workers at once, and a delivery whose worker died is taken again after its lease", async () => {
    // Two destinations of 15 deliveries each: within what one destination may have in flight at once.
    const { connection, destination } = await destinationFor([KEY1]);
    const second = await createDestination(
      admin,
      {
        connectionId: connection.id,
        name: "Second app",
        url: receiver.url,
        signing: "service",
        eventTypes: [],
        verificationMethods: [],
      },
      LOCAL_POLICY,
    );
    if (!second.ok) throw new Error(second.error);
    for (let i = 0; i < 15; i++) await receiveEvent(connection.token, [KEY1]);
    // Rounds of six takes at once until one takes nothing: a take skips what another holds locked, so one round
    // may leave some behind when the six overlap more than usual (a busy machine), never hand one out twice.
    const taken: number[] = [];
    for (let round = 0; round < 10; round++) {
      const passes = await Promise.all(Array.from({ length: 6 }, () => takeDueDeliveries(8)));
      if (passes.flat().length === 0) break;
      taken.push(...passes.flat().map((d) => d.id));
    }
    expect(taken).toHaveLength(30);
    expect(new Set(taken).size).toBe(30);
    expect(await takeDueDeliveries(50)).toEqual([]);

    // Nothing was recorded (the workers "died"): once the lease has run out, every one is taken again.
    await makeDueNow();
    await drain();
    expect(receiver.received).toHaveLength(30);
    expect(new Set(receiver.received.map((r) => r.headers[EVENT_ID_HEADER])).size).toBe(15);
    for (const id of [destination.id, second.id]) {
      expect((await deliveriesOf(id)).every((d) => d.state === "delivered" && d.attempts === 2)).toBe(true);
    }
  });

  it("fails a delivery whose event is no longer stored, in words", async () => {
    const { connection, destination } = await destinationFor([KEY1]);
    const event = await receiveEvent(connection.token, [KEY1]);
    await db.execute(sql`delete from webhook_events where connection_id = ${connection.id} and event_id = ${event.id}`);
    await drain();
    expect(await deliveriesOf(destination.id)).toMatchObject([
      { state: "failed", lastOutcome: expect.stringMatching(/no longer stored/) },
    ]);
    expect(receiver.received).toEqual([]);
  });
});
