/**
 * The forward part's isolation runs (hanging, cap, receiving during a replay), each on a fresh database and console
 * against the bench's handler, so that forwarding stays out of the receiver's path (docs/performance.md, "Isolation,
 * the rate cap and replays").
 */
import { sql } from "drizzle-orm";

import { bulkLoad } from "@/tooling/bulk-load";

import { sendEventsAtRate } from "./ingest";
import { sleep, withDatabase, type Scenario } from "./reliability/server";
import { benchConsole } from "./support/console";
import { startHangingHandler, type ForwardReceiver } from "./support/forward-receiver";
import { ACTOR, addDestinations, count, deliveryLatency, FORWARD_ENV, forwardingScenario } from "./support/forwarding";
import { round, type BackendContext } from "./support/part";
import type { Metric } from "./support/report";

const HANGING_BACKLOG = Number(process.env.BENCH_FORWARD_HANGING_BACKLOG ?? 10_000);
const HANGING_RATE = Number(process.env.BENCH_FORWARD_HANGING_RATE ?? 20);
const HANGING_SECONDS = 30;
const CAP = Number(process.env.BENCH_FORWARD_CAP ?? 100);
const CAP_EVENTS = Number(process.env.BENCH_FORWARD_CAP_EVENTS ?? 3_000);
const REPLAY_EVENTS = Number(process.env.BENCH_FORWARD_REPLAY_EVENTS ?? 100_000);
const RECEIVING_SECONDS = 20;
const WARM_UP_SECONDS = 5;

export const ISOLATION_TARGETS = {
  hanging:
    "with one destination hanging and 10,000 replayed events queued to it, a second destination's p99 stored → delivered ≤ 2 s, on both databases",
  cap: "a replay to a destination capped at 100 deliveries per second: no second sees more than 100 arrive",
  receiving: "receiver p99 during a 100,000-event replay ≤ 2× its p99 without one, on both databases",
};

/**
 * Loads `events` events into the connection and replays them all to the destination (queued before the console starts).
 */
async function replayHistory(
  scenario: Scenario,
  connectionId: string,
  destinationId: string,
  events: number,
): Promise<number> {
  return withDatabase(scenario, async (db) => {
    await bulkLoad(db, {
      connections: [{ id: connectionId, name: "Bench history", signed: true }],
      events,
      rejections: 0,
      days: 1,
      idPrefix: "history-",
    });
    const { continueReplays, startReplay } = await import("@/lib/destinations/replay");
    const replay = await startReplay(ACTOR, { connectionId, destinationId, filters: "" });
    if (!replay.ok) throw new Error(replay.error);
    // Its queue is written in chunks after the start: all of it before the database is closed.
    await continueReplays();
    return replay.total;
  });
}

export async function hangingRun(backend: BackendContext, receiver: ForwardReceiver) {
  receiver.reset();
  const hanging = await startHangingHandler();
  const { scenario, senders, destinationIds } = await forwardingScenario("hanging", receiver, "one");
  try {
    const connectionId = senders[0]!.connectionId;
    const [hangingId] = await withDatabase(scenario, () =>
      addDestinations(hanging.url, [connectionId], { name: "Hanging handler" }),
    );
    const backlog = await replayHistory(scenario, connectionId, hangingId!, HANGING_BACKLOG);
    const server = await benchConsole(scenario, FORWARD_ENV);
    let stored: number;
    try {
      const result = await sendEventsAtRate(
        server.url,
        senders.slice(0, 1),
        HANGING_RATE * HANGING_SECONDS,
        HANGING_RATE,
      );
      stored = result["2xx"];
      await receiver.waitUntil(() => receiver.delivered.size >= stored, 60_000);
    } finally {
      await server.stop();
    }
    const latency = await deliveryLatency(scenario, destinationIds[0]);
    const hangingAttempts = await count(
      scenario,
      sql`select count(*) as n from forward_attempts where destination_id = ${hangingId!}`,
    );
    console.log(
      `  ${backend.key} hanging: ${latency.delivered} of ${stored} delivered beside the hanging one (p99 ${latency.p99} ms); ${hangingAttempts} attempts to it`,
    );
    const figures = { backlog, stored, ...latency, hangingAttempts };
    const metrics: Metric[] = [
      { metric: "hanging: events queued to the hanging destination", value: backlog, unit: "" },
      { metric: "hanging: second destination's stored → delivered p50", value: latency.p50, unit: "ms" },
      {
        metric: "hanging: second destination's stored → delivered p99",
        value: latency.p99,
        unit: "ms",
        target: { op: "<=", value: 2000 },
      },
      {
        metric: "hanging: second destination's forwards not delivered",
        value: stored - latency.delivered,
        unit: "",
        target: { op: "<=", value: 0 },
      },
    ];
    return { metrics, figures };
  } finally {
    await scenario.dispose();
    await hanging.close();
  }
}

export async function capRun(backend: BackendContext, receiver: ForwardReceiver) {
  receiver.reset();
  const { scenario, senders } = await forwardingScenario("cap", receiver, "none");
  try {
    const connectionId = senders[0]!.connectionId;
    const [destinationId] = await withDatabase(scenario, () =>
      addDestinations(receiver.url, [connectionId], { maxPerSecond: CAP }),
    );
    const total = await replayHistory(scenario, connectionId, destinationId!, CAP_EVENTS);
    const startedAt = Date.now();
    const server = await benchConsole(scenario, FORWARD_ENV);
    try {
      await receiver.waitUntil(() => receiver.delivered.size >= total, (CAP_EVENTS / CAP) * 3_000 + 60_000);
      await sleep(500);
    } finally {
      await server.stop();
    }
    const seconds = (receiver.lastNewDeliveryAt() - startedAt) / 1000;
    const most = receiver.mostInOneSecond();
    console.log(
      `  ${backend.key} cap: ${receiver.delivered.size} of ${total} delivered at a cap of ${CAP}/s; at most ${most} in one second`,
    );
    const figures = {
      cap: CAP,
      total,
      delivered: receiver.delivered.size,
      mostInOneSecond: most,
      seconds: round(seconds, 1),
    };
    const metrics: Metric[] = [
      {
        metric: `cap: most forwards in any 1 s at a cap of ${CAP}/s`,
        value: most,
        unit: "",
        target: { op: "<=", value: CAP },
      },
      {
        metric: "cap: replay's average rate (console start → last delivered)",
        value: round(total / seconds, 0),
        unit: "ev/s",
      },
      {
        metric: "cap: events not delivered",
        value: total - receiver.delivered.size,
        unit: "",
        target: { op: "<=", value: 0 },
      },
    ];
    return { metrics, figures };
  } finally {
    await scenario.dispose();
  }
}

export async function receivingRun(backend: BackendContext, receiver: ForwardReceiver, rate: number) {
  receiver.reset();
  const { scenario, senders, destinationIds } = await forwardingScenario("receiving", receiver, "one");
  try {
    const connectionId = senders[0]!.connectionId;
    await withDatabase(scenario, (db) =>
      bulkLoad(db, {
        connections: [{ id: connectionId, name: "Bench history", signed: true }],
        events: REPLAY_EVENTS,
        rejections: 0,
        days: 7,
        idPrefix: "history-",
      }),
    );
    const answerP99 = async () => {
      const server = await benchConsole(scenario, FORWARD_ENV);
      try {
        // Warmed first (a fresh console compiles and caches as its first requests come), then measured.
        await sendEventsAtRate(server.url, senders, rate * WARM_UP_SECONDS, rate);
        const result = await sendEventsAtRate(server.url, senders, rate * RECEIVING_SECONDS, rate);
        return { p99: result.latency.p99, ok: result["2xx"] };
      } finally {
        await server.stop();
      }
    };
    const without = await answerP99();
    // A replay of every loaded event whose queue is still to be written: the console writes it in chunks.
    const total = await count(
      scenario,
      sql`select count(*) as n from webhook_events where connection_id = ${connectionId} and not is_test and signature_status <> 'unsigned'`,
    );
    await withDatabase(scenario, (db) =>
      db.execute(
        sql`insert into forward_replays (destination_id, filters, total, queued) values (${destinationIds[0]!}, '', ${total}, 0)`,
      ),
    );
    const during = await answerP99();
    const replayed = await count(scenario, sql`select count(*) as n from forward_deliveries where origin = 'replay'`);
    console.log(
      `  ${backend.key} receiving: answer p99 ${without.p99} ms without a replay, ${during.p99} ms during one (${replayed} of ${total} queued by then)`,
    );
    const figures = {
      rate,
      withoutP99Ms: without.p99,
      duringP99Ms: during.p99,
      replayTotal: total,
      queuedMeanwhile: replayed,
    };
    const metrics: Metric[] = [
      { metric: "receiving: answer p99 without a replay", value: without.p99, unit: "ms" },
      {
        metric: `receiving: answer p99 during a replay of the ${REPLAY_EVENTS.toLocaleString("en")} loaded`,
        value: during.p99,
        unit: "ms",
      },
      {
        metric: "receiving: p99 during ÷ without",
        value: round(during.p99 / without.p99, 2),
        unit: "",
        target: { op: "<=", value: 2 },
      },
    ];
    return { metrics, figures };
  } finally {
    await scenario.dispose();
  }
}
