import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { rowsOf, type Database } from "@/lib/db";
import { forwardDestinations } from "@/lib/db/forwarding-schema";
import { webhookEvents } from "@/lib/db/schema";
import { setUpTestDatabase } from "@/lib/testing/database";
import { expiredEvent, insertTestConnection } from "@/lib/testing/webhooks";

import { checkEnvelope } from "./envelope";
import { flushStoredEvents, storeEvent, type ReceivedEvent, type StoreOutcome } from "./store";

let db: Database;
let tearDown: () => Promise<void>;
let connectionId: string;

beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
  connectionId = (await insertTestConnection("Batched")).id;
  // Counts the INSERT statements on webhook_events (a statement-level trigger sees each once, whatever its rows).
  await db.execute(sql.raw("create table insert_statements (n int not null)"));
  await db.execute(
    sql.raw(
      "create function count_insert_statement() returns trigger language plpgsql as $$ begin insert into insert_statements values (1); return null; end $$",
    ),
  );
  await db.execute(
    sql.raw(
      "create trigger count_insert_statement after insert on webhook_events for each statement execute function count_insert_statement()",
    ),
  );
});
afterAll(() => tearDown());

function received(overrides: Parameters<typeof expiredEvent>[0] = {}): ReceivedEvent {
  const rawBody = JSON.stringify(expiredEvent(overrides));
  const checked = checkEnvelope(JSON.parse(rawBody));
  if (!checked.ok) throw new Error(checked.description);
  return {
    connectionId,
    envelope: checked.envelope,
    data: checked.data,
    rawBody,
    signatureStatus: "unsigned",
    receivedAt: new Date(),
  };
}

const statements = async () =>
  Number(rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from insert_statements`))[0]!.n);
const storedIds = async (ids: string[]) =>
  (
    await db
      .select({ eventId: webhookEvents.eventId })
      .from(webhookEvents)
      .where(sql`${webhookEvents.eventId} in ${ids}`)
  ).map((r) => r.eventId);

type Settled = { id: string; outcome?: StoreOutcome; code?: string };
async function storeAll(events: ReceivedEvent[]): Promise<Settled[]> {
  return Promise.all(
    events.map((event) =>
      storeEvent(event).then(
        (outcome) => ({ id: event.envelope.id, outcome }),
        (error: { code?: string; cause?: { code?: string } }) => ({
          id: event.envelope.id,
          code: error.code ?? error.cause?.code ?? "unknown",
        }),
      ),
    ),
  );
}

/** Runs `fn` while a trigger refuses rows whose user id is `userId` with the SQLSTATE `code`. */
async function whileRefusing<T>(userId: string, code: string, fn: () => Promise<T>): Promise<T> {
  await db.execute(
    sql.raw(`create function refuse_row() returns trigger language plpgsql as $$ begin
      if new.user_id = '${userId}' then raise exception 'refused by the test' using errcode = '${code}'; end if; return new; end $$`),
  );
  await db.execute(
    sql.raw("create trigger refuse_row before insert on webhook_events for each row execute function refuse_row()"),
  );
  try {
    return await fn();
  } finally {
    await db.execute(sql.raw("drop trigger refuse_row on webhook_events"));
    await db.execute(sql.raw("drop function refuse_row()"));
  }
}

describe("group commit", () => {
  it("writes concurrent deliveries together, and answers each only once its own row is there", async () => {
    const before = await statements();
    const events = Array.from({ length: 60 }, (_, i) => received({ data: { userId: `usr_batch_${i}` } }));
    const settled = await storeAll(events);
    expect(settled.every((s) => s.outcome?.kind === "stored")).toBe(true);
    expect((await storedIds(events.map((e) => e.envelope.id))).sort()).toEqual(events.map((e) => e.envelope.id).sort());
    // One statement each would be 60; the queue makes a handful of batches of them.
    expect((await statements()) - before).toBeLessThanOrEqual(10);
  });

  it("one row the database refuses fails alone: the rest of its batch is stored", async () => {
    const events = Array.from({ length: 20 }, (_, i) =>
      received({ data: { userId: i === 7 ? "usr_bad_value" : `usr_good_${i}` } }),
    );
    const settled = await whileRefusing("usr_bad_value", "22003", () => storeAll(events));
    const bad = events[7]!.envelope.id;
    expect(settled.find((s) => s.id === bad)).toEqual({ id: bad, code: "22003" });
    expect(settled.filter((s) => s.id !== bad).every((s) => s.outcome?.kind === "stored")).toBe(true);
    expect((await storedIds(events.map((e) => e.envelope.id))).sort()).toEqual(
      events
        .filter((e) => e.envelope.id !== bad)
        .map((e) => e.envelope.id)
        .sort(),
    );
  });

  it("a batch the database fails fails only its own requests, and never acknowledges an event it did not store", async () => {
    // P0001 is no fault of a row (as a full disk would be): the whole batch holding that row fails.
    const events = Array.from({ length: 40 }, (_, i) =>
      received({ data: { userId: i === 25 ? "usr_fails_its_batch" : `usr_other_${i}` } }),
    );
    const settled = await whileRefusing("usr_fails_its_batch", "P0001", () => storeAll(events));
    const stored = new Set(await storedIds(events.map((e) => e.envelope.id)));
    for (const s of settled) expect([s.id, s.outcome?.kind === "stored"]).toEqual([s.id, stored.has(s.id)]);
    expect(settled.find((s) => s.id === events[25]!.envelope.id)?.code).toBe("P0001");
    // The batch written first (alone, while nothing else was in flight) does not hold that row.
    expect(stored.has(events[0]!.envelope.id)).toBe(true);
  });

  it("the stop's flush returns once every queued event is written, with nobody waiting for them", async () => {
    const events = Array.from({ length: 150 }, (_, i) => received({ data: { userId: `usr_flushed_${i}` } }));
    for (const event of events) void storeEvent(event);
    await flushStoredEvents(Date.now() + 10_000);
    expect(await storedIds(events.map((e) => e.envelope.id))).toHaveLength(events.length);
  });

  it("deliveries of one event in one burst count on one row, each once; another body under its id is a conflict, counted too", async () => {
    const event = received();
    const other = { ...event, rawBody: event.rawBody.replace("usr_alice", "usr_mallory") };
    const burst = [event, event, other, event, event, event];
    const settled = await storeAll(burst);
    // Whichever body was written first is kept (on PostgreSQL two batches can be in flight at once).
    const [row] = await db
      .select()
      .from(webhookEvents)
      .where(sql`${webhookEvents.eventId} = ${event.envelope.id}`);
    expect(settled.map((s) => s.outcome?.kind)).toEqual(
      burst.map((e) => (e.rawBody === row!.rawBody ? "stored" : "conflicting")),
    );
    // Each delivery is answered 200 (a conflict too: a retry cannot help), so each one counts.
    expect(row!.deliveryCount).toBe(burst.length);
  });
});

describe("monthly partitions", () => {
  const partitionNames = async () =>
    rowsOf<{ name: string }>(
      await db.execute(
        sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'webhook_events'::regclass`,
      ),
    ).map((r) => r.name);

  it("makes the partition of a month that has none yet, and stores the event", async () => {
    expect(await partitionNames()).not.toContain("webhook_events_2019_03");
    const event = { ...received(), receivedAt: new Date("2019-03-04T05:06:07.890Z") };
    expect(await storeEvent(event)).toEqual({ kind: "stored" });
    expect(await storedIds([event.envelope.id])).toEqual([event.envelope.id]);
    expect(await partitionNames()).toContain("webhook_events_2019_03");
  });

  it("a redelivery in a later month counts on the row of the month it was first received in", async () => {
    const first = { ...received(), receivedAt: new Date("2019-04-30T23:59:59.999Z") };
    const again = { ...first, receivedAt: new Date("2019-05-01T00:00:00.001Z") };
    expect(await storeAll([first])).toEqual([{ id: first.envelope.id, outcome: { kind: "stored" } }]);
    expect(await storeAll([again, again])).toEqual(
      [again, again].map(() => ({ id: first.envelope.id, outcome: { kind: "stored" } })),
    );
    const rows = await db
      .select()
      .from(webhookEvents)
      .where(sql`${webhookEvents.eventId} = ${first.envelope.id}`);
    expect(rows.map((r) => [r.deliveryCount, r.firstReceivedAt.toISOString(), r.lastReceivedAt.toISOString()])).toEqual(
      [[3, "2019-04-30T23:59:59.999Z", "2019-05-01T00:00:00.001Z"]],
    );
  });
});

describe("deliveries queued", () => {
  it("are heard by a listener that another copy of this module registered (Next bundles the routes and startup apart)", async () => {
    const forwarded = await insertTestConnection("Forwarded");
    await db
      .insert(forwardDestinations)
      .values({ connectionId: forwarded.id, name: "Handler", url: "https://handler.example/hook" });
    vi.resetModules();
    const otherCopy = await import("./store");
    let heard = 0;
    otherCopy.onDeliveriesQueued(() => heard++);
    // Verified: an unverified event is never queued to a destination signing as the service.
    await storeEvent({ ...received(), connectionId: forwarded.id, signatureStatus: "verified_key1" });
    expect(heard).toBe(1);
    // An event of a connection without destinations queues nothing, so says nothing.
    await storeEvent(received());
    expect(heard).toBe(1);
  });
});
