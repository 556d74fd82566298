import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Database } from "@/lib/db";
import { forwardDeliveries, forwardDestinations, forwardReplays } from "@/lib/db/forwarding-schema";
import { auditLog } from "@/lib/db/schema";
import { setUpTestDatabase } from "@/lib/testing/database";
import { insertTestConnection } from "@/lib/testing/webhooks";
import { KEY1 } from "@/lib/webhooks/test-helpers";

import { EVENT_ID_HEADER } from "./constants";
import { createDestination, setDestinationEnabled } from "./destinations";
import { listEventForwards, resendEvent } from "./event-forwards";
import { attemptDeliveries } from "./forward";
import { recordAttempts, takeDueDeliveries } from "./outbox";
import { cancelReplay, continueReplays, countReplay, getReplayProgress, startReplay } from "./replay";
import { replayDurationWords } from "./replay-time";
import { deliveriesOf, LOCAL_POLICY, receiveEvent, startReceiver } from "./test-helpers";
import { forwardDueDeliveries } from "./worker";

// Replay by the log's filters and resend from an event's drawer, against a real local receiver.

const admin = { id: null, email: "admin@example.com" };
let db: Database;
let tearDown: () => Promise<void>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let acme: { id: string; token: string };
let destinationId: string;
const sms: string[] = [];

beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
  receiver = await startReceiver();
  acme = await insertTestConnection("Acme", [KEY1]);
  const other = await insertTestConnection("Other", [KEY1]);
  // Events stored before the destination exists: only a replay sends them.
  for (let i = 0; i < 12; i++) {
    const event = await receiveEvent(acme.token, [KEY1], {
      data: { verificationMethod: i % 3 === 0 ? "SMS" : "PUSH" },
    });
    if (i % 3 === 0) sms.push(event.id);
  }
  await receiveEvent(acme.token, [KEY1], {
    id: `console-test-${crypto.randomUUID()}`,
    data: { verificationMethod: "SMS" },
  });
  await receiveEvent(other.token, [KEY1], { data: { verificationMethod: "SMS" } });
  const created = await createDestination(
    admin,
    {
      connectionId: acme.id,
      name: "Handler",
      url: receiver.url,
      signing: "service",
      eventTypes: [],
      verificationMethods: [],
    },
    LOCAL_POLICY,
  );
  if (!created.ok) throw new Error(created.error);
  destinationId = created.id;
});
afterAll(async () => {
  await receiver.close();
  await tearDown();
});

async function drain() {
  while ((await forwardDueDeliveries(LOCAL_POLICY)) > 0);
}

describe("replay", () => {
  it("says how many events the filters select, then sends exactly those, once each, and counts its progress", async () => {
    // `connectionId=all` is narrowed to the destination's connection; the test event and Other's are never replayed.
    const input = { connectionId: acme.id, destinationId, filters: "verificationMethod=SMS&connectionId=all" };
    expect(await countReplay(input)).toMatchObject({
      ok: true,
      count: sms.length,
      skippedUnverified: 0,
      skippedByFilters: 0,
      running: null,
    });
    const started = await startReplay(admin, input);
    if (!started.ok) throw new Error(started.error);
    expect(started.total).toBe(sms.length);
    await continueReplays();
    expect(await getReplayProgress(started.replayId)).toMatchObject({
      total: 4,
      waiting: 4,
      delivered: 0,
      state: "running",
      destinationName: "Handler",
    });

    await drain();
    expect(receiver.received.map((r) => r.headers[EVENT_ID_HEADER]).sort()).toEqual([...sms].sort());
    expect(await getReplayProgress(started.replayId)).toMatchObject({
      total: 4,
      waiting: 0,
      delivered: 4,
      failed: 0,
      state: "finished",
    });
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, "destination.replay_started"));
    expect(audit).toMatchObject({ target: "Handler", details: { events: 4, filters: input.filters } });
  });

  it("cancels what still waits; a delivery under way when it is cancelled stays cancelled", async () => {
    receiver.received.length = 0;
    const started = await startReplay(admin, { connectionId: acme.id, destinationId, filters: "" });
    if (!started.ok) throw new Error(started.error);
    expect(started.total).toBe(12);
    await continueReplays();
    // A worker takes one delivery (leased) before the cancel, and records its attempt after it.
    const taken = await takeDueDeliveries(1);
    expect(await cancelReplay(admin, { replayId: started.replayId })).toEqual({ ok: true, cancelled: 12 });
    await recordAttempts(await attemptDeliveries(taken, LOCAL_POLICY));
    await db.execute(sql`update forward_deliveries set due_at = now() where replay_id = ${started.replayId}`);
    await drain();
    expect(receiver.received).toHaveLength(1);
    expect(await getReplayProgress(started.replayId)).toMatchObject({
      total: 12,
      waiting: 0,
      delivered: 0,
      cancelled: 12,
      state: "cancelled",
    });
    expect(await cancelReplay(admin, { replayId: started.replayId })).toMatchObject({ ok: false });
  });

  it("refuses a destination that is off, one of another connection, and filters it cannot read", async () => {
    const other = await insertTestConnection("Elsewhere", [KEY1]);
    expect(await countReplay({ connectionId: other.id, destinationId, filters: "" })).toEqual({
      ok: false,
      error: "This destination no longer exists.",
    });
    expect(await countReplay({ connectionId: acme.id, destinationId, filters: "received=forever" })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/filters cannot be read/),
    });
    await setDestinationEnabled(admin, { connectionId: acme.id, destinationId, enabled: false });
    expect(await startReplay(admin, { connectionId: acme.id, destinationId, filters: "" })).toEqual({
      ok: false,
      error: "Handler is off: turn it on to replay to it.",
    });
    await setDestinationEnabled(admin, { connectionId: acme.id, destinationId, enabled: true });
  });
});

describe("replay bounds", () => {
  // Bounded's events, all received before its destinations existed: 5 PUSH authenticator.expired (2 of
  // them stored unsigned), 2 SMS ones and 1 PUSH authenticator.created.
  let bounded: { id: string; token: string };
  let unsigned: string[];
  let service: string;
  let standard: string;
  const all = (destinationId: string) => ({ connectionId: bounded.id, destinationId, filters: "type=all" });
  const replayed = async (replayId: string) =>
    (
      await db
        .select({ eventId: forwardDeliveries.eventId })
        .from(forwardDeliveries)
        .where(eq(forwardDeliveries.replayId, replayId))
    )
      .map((d) => d.eventId)
      .sort();

  beforeAll(async () => {
    bounded = await insertTestConnection("Bounded", [KEY1]);
    const push: string[] = [];
    for (let i = 0; i < 5; i++) push.push((await receiveEvent(bounded.token, [KEY1])).id);
    for (let i = 0; i < 2; i++) await receiveEvent(bounded.token, [KEY1], { data: { verificationMethod: "SMS" } });
    await receiveEvent(bounded.token, [KEY1], { type: "authenticator.created" });
    // As a connection without a server key stores what anyone posts to its URL.
    unsigned = push.slice(0, 2);
    await db.execute(
      sql`update webhook_events set signature_status = 'unsigned' where connection_id = ${bounded.id} and event_id in (${sql.join(unsigned, sql`, `)})`,
    );
    const add = async (
      name: string,
      signing: "service" | "standard_webhooks",
      eventTypes: string[],
      verificationMethods: string[],
    ) => {
      const created = await createDestination(
        admin,
        { connectionId: bounded.id, name, url: receiver.url, signing, eventTypes, verificationMethods },
        LOCAL_POLICY,
      );
      if (!created.ok) throw new Error(created.error);
      return created.id;
    };
    service = await add("Service", "service", ["authenticator.expired"], ["PUSH"]);
    standard = await add("Standard", "standard_webhooks", [], []);
  });

  it("honours the destination's filters and never sends an unverified event as the service, counting both apart", async () => {
    const preview = await countReplay(all(service));
    expect(preview).toMatchObject({
      ok: true,
      count: 3,
      skippedUnverified: 2,
      skippedByFilters: 3,
      maxEvents: 1_000_000,
      maxPerSecond: null,
      running: null,
    });
    expect(preview.ok && preview.skippedUnverifiedWhy).toBe(
      "2 events are left out: the console could not verify their signature when they arrived, and Service signs as the service, which would tell it the service sent them.",
    );
    const started = await startReplay(admin, all(service));
    expect(started).toMatchObject({ ok: true, total: 3, skippedUnverified: 2, skippedByFilters: 3 });
    await continueReplays();
    const sent = await replayed(started.ok ? started.replayId : "");
    expect(sent).toHaveLength(3);
    expect(sent.filter((id) => unsigned.includes(id))).toEqual([]);
    receiver.received.length = 0;
    await drain();
    expect(receiver.received.map((r) => r.headers[EVENT_ID_HEADER]).sort()).toEqual(sent);

    // Standard Webhooks: unverified events only once its admin ticked "include events the console could not verify".
    expect(await countReplay(all(standard))).toMatchObject({
      count: 6,
      skippedUnverified: 2,
      skippedByFilters: 0,
      skippedUnverifiedWhy: expect.stringContaining("Standard is not set to take events the console could not verify."),
    });
    await db
      .update(forwardDestinations)
      .set({ includeUnverified: true, maxPerSecond: 10 })
      .where(eq(forwardDestinations.id, standard));
    expect(await countReplay(all(standard))).toMatchObject({
      count: 8,
      skippedUnverified: 0,
      skippedUnverifiedWhy: null,
      maxPerSecond: 10,
    });
    await db.update(forwardDestinations).set({ includeUnverified: false }).where(eq(forwardDestinations.id, standard));
  });

  it("says how long a replay takes at the destination's rate cap", () => {
    expect(replayDurationWords(100_000, 10)).toBe("about 2 h 47 min");
    expect(replayDurationWords(36_000, 10)).toBe("about 1 h");
    expect(replayDurationWords(1_000_000, 5)).toBe("about 2 d 7 h");
    expect(replayDurationWords(900, 10)).toBe("about 2 min");
    expect(replayDurationWords(30, 10)).toBe("about 3 s");
    expect(replayDurationWords(1, 10)).toBe("about a second");
  });

  it("refuses a replay larger than the limit with the count and the limit, and records nothing", async () => {
    const before = await db.select().from(forwardReplays).where(eq(forwardReplays.destinationId, standard));
    expect(await startReplay(admin, all(standard), { maxEvents: 5 })).toEqual({
      ok: false,
      error:
        "This replay would send 6 events; at most 5 at once: narrow the log's filters (a shorter time window, say).",
    });
    expect(await db.select().from(forwardReplays).where(eq(forwardReplays.destinationId, standard))).toEqual(before);
  });

  it("runs one replay per destination: a second is refused, naming the one running, even when both start at once", async () => {
    const first = await startReplay(admin, all(standard));
    if (!first.ok) throw new Error(first.error);
    await continueReplays();
    // Queued and waiting for the workers: still running.
    const refused = await startReplay(admin, all(standard));
    expect(refused).toMatchObject({ ok: false, runningReplayId: first.replayId });
    expect(!refused.ok && refused.error).toMatch(
      new RegExp(
        `^A replay to Standard is still running \\(started [^,]+, 6 of 6 still waiting\\)\\. One replay runs at a time per destination: wait until it finishes, or cancel it \\(replay ${first.replayId}\\) and start this one\\.$`,
      ),
    );
    expect(await countReplay(all(standard))).toMatchObject({
      running: { replayId: first.replayId, total: 6, queued: 6, waiting: 6 },
    });
    // Another destination is not held by it.
    expect(await countReplay(all(service))).toMatchObject({ running: null });
    expect(await cancelReplay(admin, { replayId: first.replayId })).toEqual({ ok: true, cancelled: 6 });

    const both = await Promise.all([startReplay(admin, all(standard)), startReplay(admin, all(standard))]);
    expect(both.filter((r) => r.ok)).toHaveLength(1);
    const winner = both.find((r) => r.ok)!;
    expect(both.find((r) => !r.ok)).toMatchObject({ runningReplayId: winner.ok ? winner.replayId : "" });
    await continueReplays();
    await cancelReplay(admin, { replayId: winner.ok ? winner.replayId : "" });
  });
});

describe("an event's forwards and resend", () => {
  it("lists each attempt, sends again on request, and shows the start of an answer to admins only", async () => {
    receiver.received.length = 0;
    receiver.answerWith(() => 500);
    const event = await receiveEvent(acme.token, [KEY1]);
    await drain();
    receiver.answerWith(() => 200);
    expect(await resendEvent(admin, { connectionId: acme.id, destinationId, eventId: event.id })).toEqual({ ok: true });
    await drain();
    expect(receiver.received.map((r) => r.headers[EVENT_ID_HEADER])).toEqual([event.id, event.id]);

    const [forwards] = await listEventForwards(acme.id, event.id, "admin");
    expect(forwards!.deliveries.map((d) => [d.origin, d.state])).toEqual([
      ["resend", "delivered"],
      ["receipt", "pending"],
    ]);
    expect(forwards!.deliveries[1]!.attempts).toMatchObject([
      { status: 500, ok: false, outcome: "answered 500", responseBody: "refused with 500" },
    ]);
    const [forSupport] = await listEventForwards(acme.id, event.id, "support");
    expect(forSupport!.deliveries[1]!.attempts[0]!.responseBody).toBeNull();
    expect(await resendEvent(admin, { connectionId: acme.id, destinationId, eventId: "no-such-event" })).toEqual({
      ok: false,
      error: "This event is no longer stored.",
    });
    expect((await deliveriesOf(destinationId)).filter((d) => d.origin === "resend")).toHaveLength(1);
    await db.execute(sql`update forward_deliveries set state = 'cancelled' where state = 'pending'`);
  });
});
