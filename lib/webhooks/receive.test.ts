import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { installDatabase, type Database, type DatabaseHandle } from "@/lib/db";
import { webhookEvents } from "@/lib/db/schema";
import { setUpTestDatabase, unreachableDatabase } from "@/lib/testing/database";
import { expiredEvent, webhookRequest } from "@/lib/testing/webhooks";

import { receiveWebhook } from "./receive";
import { resetRejectionLimits } from "./rejections";
import { signatureHeader } from "./signature";
import { eventRow, insertReceiverConnections, KEY1, KEY2 } from "./test-helpers";

// What the receiver accepts and stores, and how it holds up; what it refuses is in receive-refusals.test.ts.

let db: Database;
let handle: DatabaseHandle;
let tearDown: () => Promise<void>;
let signed: { id: string; token: string };
let rotating: { id: string; token: string };
let unsigned: { id: string; token: string };

beforeAll(async () => {
  ({ db, handle, tearDown } = await setUpTestDatabase());
  ({ signed, rotating, unsigned } = await insertReceiverConnections());
});
afterAll(() => tearDown());
beforeEach(() => resetRejectionLimits());

describe("accepted events", () => {
  it("stores a signed authenticator.expired event with its data as columns and answers 200 {success:true}", async () => {
    const event = expiredEvent({ data: { email: "jane@example.com" } });
    const response = await receiveWebhook(webhookRequest(signed.token, event, { keys: [KEY1] }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true });
    const [row] = await eventRow(signed.id, event.id);
    expect(row).toMatchObject({
      type: "authenticator.expired",
      tenantId: event.tenantId,
      signatureStatus: "verified_key1",
      deliveryCount: 1,
      userId: "usr_alice",
      verificationMethod: "PUSH",
      userAuthenticatorId: "ua_alice_push",
      deviceName: "Alice's iPhone",
      devicePlatform: "IOS",
      email: "jane@example.com",
      phoneNumber: null,
      rawBody: JSON.stringify(event),
    });
    expect(row!.expiresAt?.toISOString()).toBe("2025-06-01T12:00:00.000Z");
    expect(row!.authenticatorCreatedAt?.toISOString()).toBe("2025-01-10T09:00:00.000Z");
    expect(row!.envelopeTime.toISOString()).toBe("2025-06-01T12:00:05.123Z");
  });

  it("accepts either key during rotation and records which one matched", async () => {
    const both = expiredEvent();
    expect((await receiveWebhook(webhookRequest(rotating.token, both, { keys: [KEY1, KEY2] }))).status).toBe(200);
    expect((await eventRow(rotating.id, both.id))[0]?.signatureStatus).toBe("verified_key1");

    const onlyOld = expiredEvent();
    expect((await receiveWebhook(webhookRequest(rotating.token, onlyOld, { keys: [KEY2] }))).status).toBe(200);
    expect((await eventRow(rotating.id, onlyOld.id))[0]?.signatureStatus).toBe("verified_key2");

    // A v2 entry made with an unknown key next to a good one still passes: any entry may match.
    const mixed = expiredEvent();
    const raw = JSON.stringify(mixed);
    const t = Math.floor(Date.now() / 1000);
    const header = `${signatureHeader(raw, t, ["some_other_key"])},${signatureHeader(raw, t, [KEY2]).split(",")[1]}`;
    expect((await receiveWebhook(webhookRequest(rotating.token, raw, { signature: header }))).status).toBe(200);
  });

  it("accepts events on a connection without a server key and marks them unsigned", async () => {
    const event = expiredEvent();
    const response = await receiveWebhook(webhookRequest(unsigned.token, event));
    expect(response.status).toBe(200);
    expect((await eventRow(unsigned.id, event.id))[0]?.signatureStatus).toBe("unsigned");
  });

  it("stores unknown event kinds as they are", async () => {
    const event = { ...expiredEvent(), type: "authenticator.created", data: { anything: [1, 2, 3] } };
    const response = await receiveWebhook(webhookRequest(signed.token, event, { keys: [KEY1] }));
    expect(response.status).toBe(200);
    const [row] = await eventRow(signed.id, event.id);
    expect(row).toMatchObject({ type: "authenticator.created", userId: null, rawBody: JSON.stringify(event) });
  });

  it("accepts application/json with parameters and the signature over the exact raw bytes", async () => {
    const event = expiredEvent();
    const raw = `{ "version":1,\n "id":"${event.id}", "source":"${event.source}", "time":"${event.time}", "tenantId":"${event.tenantId}", "type":"${event.type}", "data":${JSON.stringify(event.data)} }`;
    const response = await receiveWebhook(
      webhookRequest(signed.token, raw, {
        keys: [KEY1],
        headers: { "content-type": "application/json; charset=utf-8" },
      }),
    );
    expect(response.status).toBe(200);
    expect((await eventRow(signed.id, event.id))[0]?.rawBody).toBe(raw);
  });
});

describe("redelivery and durability", () => {
  it("the same event id posted 20 times at once makes one row with a delivery count of 20", async () => {
    const event = expiredEvent();
    const raw = JSON.stringify(event);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => receiveWebhook(webhookRequest(signed.token, raw, { keys: [KEY1] }))),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    const rows = await eventRow(signed.id, event.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.deliveryCount).toBe(20);
  });

  it("a later redelivery moves the last-received time and keeps the first", async () => {
    const event = expiredEvent();
    const first = new Date("2025-06-01T12:00:10.000Z");
    const second = new Date("2025-06-01T12:00:40.000Z");
    const at = (d: Date) =>
      webhookRequest(signed.token, event, { keys: [KEY1], timestamp: Math.floor(d.getTime() / 1000) });
    expect((await receiveWebhook(at(first), { now: first })).status).toBe(200);
    expect((await receiveWebhook(at(second), { now: second })).status).toBe(200);
    const [row] = await eventRow(signed.id, event.id);
    expect(row).toMatchObject({ deliveryCount: 2, firstReceivedAt: first, lastReceivedAt: second });
  });

  it("the same event id on two connections is two rows", async () => {
    const event = expiredEvent();
    await receiveWebhook(webhookRequest(signed.token, event, { keys: [KEY1] }));
    await receiveWebhook(webhookRequest(unsigned.token, event));
    expect(await db.$count(webhookEvents, eq(webhookEvents.eventId, event.id))).toBe(2);
  });

  it("answers 503 and keeps no row when the insert fails, and the retry then succeeds", async () => {
    // A real failure inside the database at insert time, as a full disk or a lost connection would give.
    await db.execute(
      sql.raw(
        "create function fail_webhook_insert() returns trigger language plpgsql as $$ begin raise exception 'disk full'; end $$",
      ),
    );
    await db.execute(
      sql.raw(
        "create trigger fail_webhook_insert before insert on webhook_events for each row execute function fail_webhook_insert()",
      ),
    );
    const event = expiredEvent();
    try {
      const response = await receiveWebhook(webhookRequest(signed.token, event, { keys: [KEY1] }));
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ error: "unavailable" });
      expect(await eventRow(signed.id, event.id)).toHaveLength(0);
    } finally {
      await db.execute(sql.raw("drop trigger fail_webhook_insert on webhook_events"));
      await db.execute(sql.raw("drop function fail_webhook_insert()"));
    }
    expect((await receiveWebhook(webhookRequest(signed.token, event, { keys: [KEY1] }))).status).toBe(200);
    expect((await eventRow(signed.id, event.id))[0]?.deliveryCount).toBe(1);
  });

  it("answers 503 when the database is down altogether", async () => {
    const down = await unreachableDatabase();
    installDatabase(down);
    try {
      const response = await receiveWebhook(webhookRequest(signed.token, expiredEvent(), { keys: [KEY1] }));
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ error: "unavailable" });
    } finally {
      installDatabase(handle);
      await down.close();
    }
  });
});
