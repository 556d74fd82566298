import crypto from "node:crypto";

import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import type { Database } from "@/lib/db";
import { webhookEvents, webhookRejections } from "@/lib/db/schema";
import { setUpTestDatabase } from "@/lib/testing/database";
import { expiredEvent, webhookRequest } from "@/lib/testing/webhooks";

import { MAX_WEBHOOK_BODY_BYTES, receiveWebhook } from "./receive";
import { REJECTIONS_PER_MINUTE, resetRejectionLimits } from "./rejections";
import { signatureHeader } from "./signature";
import { eventRow, expectRejected, insertReceiverConnections, KEY1, KEY2, lastRejection } from "./test-helpers";

// What the receiver refuses, and what it records of it; what it accepts is in receive.test.ts.

let db: Database;
let tearDown: () => Promise<void>;
let signed: { id: string; token: string };
let unsigned: { id: string; token: string };

beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
  ({ signed, unsigned } = await insertReceiverConnections());
});
afterAll(() => tearDown());
beforeEach(() => resetRejectionLimits());

describe("refused requests, in the order of the steps", () => {
  it("answers 404 to an unknown token, before anything else and without reading the body, recorded without a connection", async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(1024).fill(32));
      },
    });
    const request = new Request(`http://x/api/webhooks/${"A".repeat(32)}`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body,
      duplex: "half",
    } as RequestInit);
    const { rejection } = await expectRejected(await receiveWebhook(request), 404, "unknown_token");
    expect(rejection.connectionId).toBeNull();
    expect(rejection.bodySha256).toBe(crypto.createHash("sha256").update("").digest("hex"));
    // A ReadableStream pulls once to fill its queue when made; the receiver reads nothing more.
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it("answers 413 when Content-Length says the body is too large", async () => {
    const response = await receiveWebhook(
      webhookRequest(signed.token, "{}", { headers: { "content-length": String(MAX_WEBHOOK_BODY_BYTES + 1) } }),
    );
    await expectRejected(response, 413, "too_large");
  });

  it("answers 413 to a streamed body over 256 KiB, reading no further than the limit", async () => {
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024).fill(32);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        if (pulled > 1000) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const request = new Request(`http://x/api/webhooks/${signed.token}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    const response = await receiveWebhook(request);
    await expectRejected(response, 413, "too_large");
    expect(pulled).toBeLessThanOrEqual(7);
  });

  it("a body of exactly 256 KiB is not too large", async () => {
    const event = expiredEvent();
    const raw = JSON.stringify(event);
    const padded = raw.slice(0, -1) + `,"pad":"${"x".repeat(MAX_WEBHOOK_BODY_BYTES - raw.length - 9)}"}`;
    expect(Buffer.byteLength(padded)).toBe(MAX_WEBHOOK_BODY_BYTES);
    expect((await receiveWebhook(webhookRequest(signed.token, padded, { keys: [KEY1] }))).status).toBe(200);
  });

  it("answers 415 when the content type is not JSON", async () => {
    const event = expiredEvent();
    const response = await receiveWebhook(
      webhookRequest(signed.token, event, { keys: [KEY1], headers: { "content-type": "text/plain" } }),
    );
    const { rejection } = await expectRejected(response, 415, "unsupported_media_type");
    expect(rejection.eventId).toBe(event.id);
    expect(rejection.connectionId).toBe(signed.id);
  });

  it("answers 401 when the signature header is missing", async () => {
    const response = await receiveWebhook(webhookRequest(signed.token, expiredEvent()));
    const { rejection } = await expectRejected(response, 401, "bad_signature");
    expect(rejection.detail).toContain("missing");
  });

  it("answers 401 when the body was tampered with after signing", async () => {
    const event = expiredEvent();
    const raw = JSON.stringify(event);
    const header = signatureHeader(raw, Math.floor(Date.now() / 1000), [KEY1]);
    const response = await receiveWebhook(
      webhookRequest(signed.token, raw.replace("usr_alice", "usr_mallory"), { signature: header }),
    );
    const { rejection } = await expectRejected(response, 401, "bad_signature");
    expect(rejection.headers).toMatchObject({ "x-signature-v2": header, "content-type": "application/json" });
    expect(rejection.eventId).toBe(event.id);
    expect(await eventRow(signed.id, event.id)).toHaveLength(0);
  });

  it("answers 401 when the header was tampered with (timestamp changed, signature changed, wrong key)", async () => {
    const raw = JSON.stringify(expiredEvent());
    const t = Math.floor(Date.now() / 1000);
    const good = signatureHeader(raw, t, [KEY1]);
    const newerT = good.replace(`t=${t}`, `t=${t + 1}`);
    await expectRejected(
      await receiveWebhook(webhookRequest(signed.token, raw, { signature: newerT })),
      401,
      "bad_signature",
    );
    const flipped = good.slice(0, -2) + (good.endsWith("AA") ? "BB" : "AA");
    await expectRejected(
      await receiveWebhook(webhookRequest(signed.token, raw, { signature: flipped })),
      401,
      "bad_signature",
    );
    await expectRejected(
      await receiveWebhook(webhookRequest(signed.token, raw, { keys: [KEY2] })),
      401,
      "bad_signature",
    );
    await expectRejected(
      await receiveWebhook(webhookRequest(signed.token, raw, { signature: "garbage" })),
      401,
      "bad_signature",
    );
  });

  it("answers 401 stale_timestamp when the signature is older than 5 minutes (or as far in the future)", async () => {
    // Each from the clock just before its request, with room for a slow machine: a future timestamp read
    // once at the start came within 5 minutes when the request before it took over a second (CI, loaded).
    const secondsFromNow = (s: number) => Math.floor(Date.now() / 1000) + s;
    const old = expiredEvent();
    await expectRejected(
      await receiveWebhook(webhookRequest(signed.token, old, { keys: [KEY1], timestamp: secondsFromNow(-301) })),
      401,
      "stale_timestamp",
    );
    await expectRejected(
      await receiveWebhook(webhookRequest(signed.token, old, { keys: [KEY1], timestamp: secondsFromNow(310) })),
      401,
      "stale_timestamp",
    );
    expect(
      (await receiveWebhook(webhookRequest(signed.token, old, { keys: [KEY1], timestamp: secondsFromNow(-280) })))
        .status,
    ).toBe(200);
  });

  it("answers 400 to a body that is not JSON (after the signature was checked)", async () => {
    const response = await receiveWebhook(webhookRequest(signed.token, "{not json", { keys: [KEY1] }));
    const { body, rejection } = await expectRejected(response, 400, "malformed_json");
    expect(body.error).toBe("invalid_request");
    expect(rejection.eventId).toBeNull();
  });

  it.each([
    ["id", { id: "not-a-uuid" }, "id"],
    ["version", { version: "1" }, "version"],
    ["time", { time: "yesterday" }, "time"],
    ["tenantId", { tenantId: 42 }, "tenantId"],
    ["data.userId missing", { data: { userId: undefined } }, "data.userId"],
    ["data.expiresAt not a time", { data: { expiresAt: "soon" } }, "data.expiresAt"],
    ["data.deviceName not a string", { data: { deviceName: 7 } }, "data.deviceName"],
    ["data.email not a string", { data: { email: ["a@b.c"] } }, "data.email"],
  ])("400 invalid_request naming the bad field: %s", async (_, overrides, field) => {
    const event = expiredEvent(overrides as Record<string, unknown>);
    const response = await receiveWebhook(webhookRequest(signed.token, event, { keys: [KEY1] }));
    const { body } = await expectRejected(response, 400, "invalid_envelope");
    expect(body.error).toBe("invalid_request");
    expect(body.errorDescription.startsWith(`${field}:`)).toBe(true);
  });

  it("rate-limits the recording of rejections per token, not the answers", async () => {
    const before = await db.$count(webhookRejections);
    for (let i = 0; i < REJECTIONS_PER_MINUTE + 10; i++) {
      expect(
        (await receiveWebhook(webhookRequest(unsigned.token, "{}", { headers: { "content-type": "text/plain" } })))
          .status,
      ).toBe(415);
    }
    expect((await db.$count(webhookRejections)) - before).toBe(REJECTIONS_PER_MINUTE);
    // Another token has its own allowance.
    await receiveWebhook(webhookRequest(signed.token, "{}", { headers: { "content-type": "text/plain" } }));
    expect((await db.$count(webhookRejections)) - before).toBe(REJECTIONS_PER_MINUTE + 1);
  });

  it("gives all unknown URLs one shared allowance, so fresh random tokens cannot flood the table", async () => {
    const before = await db.$count(webhookRejections);
    for (let i = 0; i < REJECTIONS_PER_MINUTE + 10; i++) {
      const randomToken = crypto.randomBytes(24).toString("base64url");
      expect((await receiveWebhook(webhookRequest(randomToken, "{}"))).status).toBe(404);
    }
    expect((await db.$count(webhookRejections)) - before).toBe(REJECTIONS_PER_MINUTE);
  });
});

describe("nothing valid-looking lost: what the database cannot hold is refused, never a 503", () => {
  it.each([
    ["a year-0 expiry", { data: { expiresAt: "0000-01-01T00:00:00Z" } }, "data.expiresAt"],
    ["an expiry in year 10000 in UTC", { data: { expiresAt: "9999-12-31T23:59:59-23:59" } }, "data.expiresAt"],
    ["a year-0 envelope time", { time: "0000-06-01T00:00:00+00:00" }, "time"],
    [
      "a year-99 creation time, which would be read back as 1999",
      { data: { createdAt: "0099-06-01T00:00:00Z" } },
      "data.createdAt",
    ],
    ["NUL in the user id", { data: { userId: "usr_\u0000nul" } }, "data.userId"],
    ["a lone surrogate in the email", { data: { email: "a\ud800@example.com" } }, "data.email"],
    ["NUL in the type", { type: "authenticator.expired\u0000" }, "type"],
  ])("400 invalid_envelope naming the field, recorded: %s", async (_, overrides, field) => {
    const event = expiredEvent(overrides as Record<string, unknown>);
    const response = await receiveWebhook(webhookRequest(signed.token, event, { keys: [KEY1] }));
    const { body, rejection } = await expectRejected(response, 400, "invalid_envelope");
    expect(body.errorDescription.startsWith(`${field}:`)).toBe(true);
    expect(rejection.eventId).toBe(event.id);
    expect(await eventRow(signed.id, event.id)).toHaveLength(0);
  });

  it("the first and last storable instants are stored as sent", async () => {
    const event = expiredEvent({ data: { createdAt: "0100-01-01T00:00:00Z", expiresAt: "9999-12-31T23:59:59.999Z" } });
    expect((await receiveWebhook(webhookRequest(signed.token, event, { keys: [KEY1] }))).status).toBe(200);
    const [row] = await eventRow(signed.id, event.id);
    expect(row!.authenticatorCreatedAt!.toISOString()).toBe("0100-01-01T00:00:00.000Z");
    expect(row!.expiresAt!.toISOString()).toBe("9999-12-31T23:59:59.999Z");
  });

  it("a data exception the database raises (SQLSTATE class 22) is a 400 and a rejection, not a 503", async () => {
    await db.execute(
      sql.raw(
        "create function refuse_webhook_value() returns trigger language plpgsql as $$ begin raise exception 'value out of range' using errcode = '22003'; end $$",
      ),
    );
    await db.execute(
      sql.raw(
        "create trigger refuse_webhook_value before insert on webhook_events for each row execute function refuse_webhook_value()",
      ),
    );
    try {
      const event = expiredEvent();
      const response = await receiveWebhook(webhookRequest(signed.token, event, { keys: [KEY1] }));
      const { body } = await expectRejected(response, 400, "invalid_envelope");
      expect(body.errorDescription).toContain("22003");
    } finally {
      await db.execute(sql.raw("drop trigger refuse_webhook_value on webhook_events"));
      await db.execute(sql.raw("drop function refuse_webhook_value()"));
    }
  });

  it("a signed body that is not valid UTF-8 is refused (400), not stored as different text", async () => {
    const event = expiredEvent();
    const bytes = Buffer.concat([
      Buffer.from(JSON.stringify(event).slice(0, -2)),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}'),
    ]);
    const t = Math.floor(Date.now() / 1000);
    const request = new Request(`http://x/api/webhooks/${signed.token}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-signature-v2": signatureHeader(bytes, t, [KEY1]) },
      body: bytes,
    });
    const { body } = await expectRejected(await receiveWebhook(request), 400, "malformed_json");
    expect(body.errorDescription).toContain("UTF-8");
    expect(await eventRow(signed.id, event.id)).toHaveLength(0);
  });

  it("answers the same event id with another body 200 (no retry), counted, the first body kept, a conflicting_redelivery rejection with both hashes", async () => {
    const first = expiredEvent();
    const second = { ...first, data: { ...first.data, userId: "usr_someone_else" } };
    expect((await receiveWebhook(webhookRequest(signed.token, first, { keys: [KEY1] }))).status).toBe(200);
    const response = await receiveWebhook(webhookRequest(signed.token, second, { keys: [KEY1] }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true });
    const [row] = await eventRow(signed.id, first.id);
    // Answered 200, so counted: Deliveries is the number of times the service was told the id arrived.
    expect(row).toMatchObject({ rawBody: JSON.stringify(first), deliveryCount: 2, userId: "usr_alice" });
    const rejection = await lastRejection();
    const hash = (value: object) => crypto.createHash("sha256").update(JSON.stringify(value)).digest("hex");
    expect(rejection).toMatchObject({
      reason: "conflicting_redelivery",
      status: 200,
      eventId: first.id,
      connectionId: signed.id,
      bodySha256: hash(second),
    });
    expect(rejection!.detail).toContain(hash(first));
    expect(rejection!.detail).toContain(hash(second));
  });

  it("every 200 counts once: deliveries of one event sent at once, in one burst and in batches behind others, a conflicting body among them", async () => {
    const events = Array.from({ length: 12 }, () => expiredEvent());
    // Event i is sent i+1 times, all concurrently, shuffled among the others (so some deliveries of an
    // event wait in the queue behind a batch holding another of its deliveries); every third event
    // has one delivery with another body.
    const deliveries = events.flatMap((event, i) =>
      Array.from({ length: i + 1 }, (_, n) =>
        i % 3 === 0 && n === 1 ? { ...event, data: { ...event.data, userId: "usr_other_body" } } : event,
      ),
    );
    const order = deliveries
      .map((d, i) => ({ d, rank: crypto.createHash("sha256").update(String(i)).digest().readUInt32BE(0) }))
      .sort((a, b) => a.rank - b.rank);
    const statuses = await Promise.all(
      order.map(({ d }) =>
        receiveWebhook(webhookRequest(signed.token, d, { keys: [KEY1] })).then((r) => [d.id, r.status] as const),
      ),
    );
    const answered200 = new Map<string, number>();
    for (const [id, status] of statuses) if (status === 200) answered200.set(id, (answered200.get(id) ?? 0) + 1);
    const rows = await db
      .select()
      .from(webhookEvents)
      .where(sql`${webhookEvents.eventId} in ${events.map((e) => e.id)}`);
    expect(Object.fromEntries(rows.map((r) => [r.eventId, r.deliveryCount]))).toEqual(
      Object.fromEntries(events.map((e, i) => [e.id, i + 1])),
    );
    expect(Object.fromEntries(answered200)).toEqual(Object.fromEntries(events.map((e, i) => [e.id, i + 1])));
  });

  it("two X-Signature-V2 headers are refused in either order, even when one of them is valid", async () => {
    const raw = JSON.stringify(expiredEvent());
    const t = Math.floor(Date.now() / 1000);
    const good = signatureHeader(raw, t, [KEY1]);
    const other = signatureHeader(raw, t - 100, ["not_the_key"]);
    for (const [a, b] of [
      [good, other],
      [other, good],
      [good, good],
    ]) {
      const headers = new Headers({ "content-type": "application/json" });
      headers.append("x-signature-v2", a!);
      headers.append("x-signature-v2", b!);
      const request = new Request(`http://x/api/webhooks/${signed.token}`, { method: "POST", headers, body: raw });
      const { rejection } = await expectRejected(await receiveWebhook(request), 401, "bad_signature");
      expect(rejection.detail).toContain("more than one timestamp");
    }
  });
});
