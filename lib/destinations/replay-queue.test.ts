import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Database } from "@/lib/db";
import { setUpTestDatabase } from "@/lib/testing/database";
import { scaled } from "@/lib/testing/timeouts";
import { insertTestConnection } from "@/lib/testing/webhooks";
import { KEY1 } from "@/lib/webhooks/test-helpers";
import { bulkLoad, insertBulkConnections, type BulkConnection } from "@/tooling/bulk-load";

import { createDestination } from "./destinations";
import { cancelReplay, continueReplays, getReplayProgress, startReplay } from "./replay";
import { LOCAL_POLICY, receiveEvent } from "./test-helpers";

// A replay queues in chunks, each its own short statement that moves the replay's cursor: webhooks are
// stored between two chunks, and a start that a crash interrupted goes on from its cursor.

const admin = { id: null, email: "admin@example.com" };
let db: Database;
let tearDown: () => Promise<void>;

// One connection's events, loaded once: each describe replays them to a destination of its own.
let connection: BulkConnection;

beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
  [connection] = (await insertBulkConnections(db, 1, { prefix: "Chunked", unsigned: 0 })) as [BulkConnection];
  await bulkLoad(db, { connections: [connection], events: 2_000, rejections: 0, days: 1, idPrefix: "Chunked-" });
});
afterAll(async () => {
  await tearDown();
});

const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** A destination on the bulk-loaded connection; nothing listens on port 9, and the workers are not running here. */
async function destinationOn(name: string): Promise<string> {
  const created = await createDestination(
    admin,
    {
      connectionId: connection.id,
      name,
      url: "http://127.0.0.1:9/hook",
      signing: "standard_webhooks",
      eventTypes: [],
      verificationMethods: [],
    },
    LOCAL_POLICY,
  );
  if (!created.ok) throw new Error(created.error);
  return created.id;
}

/** The replay's deliveries: how many, and how many distinct events (the same when no event was queued twice). */
async function queuedOf(replayId: string) {
  const [row] = rows<{ deliveries: number; events: number }>(
    await db.execute(
      sql`select count(*)::int as deliveries, count(distinct event_id)::int as events from forward_deliveries where replay_id = ${replayId}`,
    ),
  );
  return row!;
}

/**
 * Puts the replay back as a crash after its first `kept` events would have left it: still queuing, its
 * cursor at its `kept`-th event in (received, id) order, the deliveries of the events after it gone.
 */
async function interruptAfter(replayId: string, connectionId: string, kept: number): Promise<void> {
  await db.execute(sql`
    with ordered as (
      select e.event_id, e.first_received_at, e.id, row_number() over (order by e.first_received_at, e.id) as n
      from webhook_events e join forward_deliveries d on d.replay_id = ${replayId} and d.event_id = e.event_id
      where e.connection_id = ${connectionId}
    ), dropped as (
      delete from forward_deliveries d using ordered o where d.replay_id = ${replayId} and d.event_id = o.event_id and o.n > ${kept}
    )
    update forward_replays set queued = ${kept}, queued_at = null,
      queue_cursor = (select to_char(first_received_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ',' || id from ordered where n = ${kept})
    where id = ${replayId}`);
}

describe("chunked queuing", () => {
  let bulk: { connection: BulkConnection; destinationId: string };
  let replayId: string;
  let total: number;

  beforeAll(async () => {
    bulk = { connection, destinationId: await destinationOn("Chunked") };
  });

  it("queues every selected event once, in chunks, and goes on from its cursor after an interrupted start", async () => {
    const started = await startReplay(
      admin,
      { connectionId: bulk.connection.id, destinationId: bulk.destinationId, filters: "type=all" },
      { chunkSize: 300 },
    );
    if (!started.ok) throw new Error(started.error);
    ({ replayId, total } = started);
    expect(total).toBe(1_998); // two of them are test events
    await continueReplays();
    expect(await getReplayProgress(replayId)).toMatchObject({ total, queued: total, waiting: total, state: "running" });
    expect(await queuedOf(replayId)).toEqual({ deliveries: total, events: total });

    // Killed after its first 900 events: the next pass queues the rest, none twice.
    await interruptAfter(replayId, bulk.connection.id, 900);
    expect(await getReplayProgress(replayId)).toMatchObject({ queued: 900, waiting: 900, state: "queuing" });
    expect(await continueReplays({ chunkSize: 250 })).toBe(total - 900);
    expect(await queuedOf(replayId)).toEqual({ deliveries: total, events: total });
    expect(await getReplayProgress(replayId)).toMatchObject({ queued: total, state: "running" });

    // Killed before its first chunk (right after the start's transaction): all of it.
    await db.execute(sql`delete from forward_deliveries where replay_id = ${replayId}`);
    await db.execute(
      sql`update forward_replays set queued = 0, queue_cursor = null, queued_at = null where id = ${replayId}`,
    );
    expect(await continueReplays({ chunkSize: 700 })).toBe(total);
    expect(await queuedOf(replayId)).toEqual({ deliveries: total, events: total });
  });

  it("cancelled while queuing, it queues nothing more and drops what it queued", async () => {
    await interruptAfter(replayId, bulk.connection.id, 500);
    expect(await cancelReplay(admin, { replayId })).toEqual({ ok: true, cancelled: 500 });
    expect(await continueReplays({ chunkSize: 100 })).toBe(0);
    expect(await queuedOf(replayId)).toEqual({ deliveries: 500, events: 500 });
    expect(await getReplayProgress(replayId)).toMatchObject({
      total,
      queued: 500,
      cancelled: 500,
      waiting: 0,
      state: "cancelled",
    });
  });

  it("leaves out events received after it started: storing queued those", async () => {
    const started = await startReplay(
      admin,
      { connectionId: bulk.connection.id, destinationId: bulk.destinationId, filters: "type=all" },
      { chunkSize: 500 },
    );
    if (!started.ok) throw new Error(started.error);
    // Stored just after the start (a second later by the clock), by the receiver's statement.
    await db.execute(sql`
      insert into webhook_events (connection_id, event_id, type, tenant_id, envelope_time, first_received_at, last_received_at, signature_status, raw_body)
      select connection_id, 'received-after-the-start', type, tenant_id, envelope_time, now() + interval '1 second', now() + interval '1 second', signature_status, raw_body
      from webhook_events where connection_id = ${bulk.connection.id} limit 1`);
    await continueReplays();
    expect(await queuedOf(started.replayId)).toEqual({ deliveries: total, events: total });
    await cancelReplay(admin, { replayId: started.replayId });
  });
});

describe("receiving during a replay's queuing", () => {
  it(
    "stores a webhook between two chunks, not after the whole replay",
    async () => {
      const destinationId = await destinationOn("Receiving");
      const other = await insertTestConnection("Busy", [KEY1]);
      // Chunks of a fixed, small size (twenty), each a statement the webhook's own may come between.
      const started = await startReplay(
        admin,
        { connectionId: connection.id, destinationId, filters: "type=all" },
        { chunkSize: 100 },
      );
      if (!started.ok) throw new Error(started.error);
      const t0 = performance.now();
      await receiveEvent(other.token, [KEY1]);
      const storedInMs = performance.now() - t0;
      const progress = await getReplayProgress(started.replayId);
      expect(progress).toMatchObject({ state: "queuing" });
      expect(progress!.queued).toBeLessThan(started.total);
      expect(storedInMs).toBeLessThan(scaled(1_000));
      await continueReplays();
      expect(await queuedOf(started.replayId)).toEqual({ deliveries: started.total, events: started.total });
    },
    scaled(60_000),
  );
});
