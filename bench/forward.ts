/**
 * The forward part: forwarding's cost to ingest, steady delivery latency, an outage and a replay, each run on a fresh
 * database and console against a handler that verifies every forward (docs/performance.md, "Forwarding", "How each
 * is measured"). Results: bench/results/forward.json.
 */
import { sql } from "drizzle-orm";

import { bulkLoad, insertBulkConnections } from "@/tooling/bulk-load";

import { capRun, hangingRun, ISOLATION_TARGETS, receivingRun } from "./forward-isolation";
import { ingestRates, runIngestPhases, sendEventsAtRate } from "./ingest";
import { sleep, withDatabase } from "./reliability/server";
import { benchConsole, benchScenario } from "./support/console";
import { startForwardReceiver, type ForwardReceiver } from "./support/forward-receiver";
import {
  ACTOR,
  addDestinations,
  count,
  deliveryLatency,
  FORWARD_ENV,
  forwardingScenario,
  type Forwarding,
} from "./support/forwarding";
import { measuredPart, median, round, sum, type BackendContext } from "./support/part";
import type { BackendKey, Metric } from "./support/report";

const NAME = "forward";
const STEADY_EVENTS = Number(process.env.BENCH_FORWARD_EVENTS ?? 50_000);
const INGEST_PAIRS = Number(process.env.BENCH_FORWARD_INGEST_PAIRS ?? 5);
/**
 * Events/s of the steady and outage runs: a stream each database's console stores with room to spare
 * (PGlite runs in the console's one thread, beside the receiver and the workers; its ingest part
 * saturates near 200 events/s on 2 cores, PostgreSQL's near 900).
 */
const STEADY_RATE: Record<BackendKey, number> = {
  pglite: Number(process.env.BENCH_FORWARD_RATE ?? 100),
  postgres: Number(process.env.BENCH_FORWARD_RATE ?? 250),
};
const OUTAGE_SECONDS = Number(process.env.BENCH_FORWARD_OUTAGE_SECONDS ?? 30);
const outageRate = (backend: BackendContext) => Math.max(1, Math.round(STEADY_RATE[backend.key] / 10));
const REPLAY_EVENTS = Number(process.env.BENCH_FORWARD_REPLAY_EVENTS ?? 100_000);
/** How long the handler may take to receive what was stored, after the sending stops. */
const SETTLE_MS = 180_000;

const TARGETS = {
  ingest: "ingest ÷ /api/health with one active destination within 0.05 of the ratio without one, on both databases",
  steady: "50,000 events forwarded to a healthy local destination, p99 stored → delivered ≤ 2 s, on both databases",
  outage: "a destination down for the first half of a run, then back: every event delivered, none twice at once",
  replay: "a replay of 100,000 events to a local destination ≥ 1,000 events/s on PostgreSQL",
  ...ISOLATION_TARGETS,
};

export const forwardPart = measuredPart(
  NAME,
  `Forward: ingest with and without destinations, ${STEADY_EVENTS.toLocaleString("en")} events at ${STEADY_RATE.pglite}/s (PGlite) and ${STEADY_RATE.postgres}/s (PostgreSQL), an outage of ${OUTAGE_SECONDS} s, a replay of ${REPLAY_EVENTS.toLocaleString("en")}`,
  TARGETS,
  measure,
);

/**
 * The runs to make (BENCH_FORWARD_RUNS, comma-separated; all by default): a figure of one run can be taken again alone.
 */
const RUNS = ["ingest", "steady", "outage", "replay", "hanging", "cap", "receiving"] as const;
const chosenRuns = new Set(process.env.BENCH_FORWARD_RUNS?.split(",").map((run) => run.trim()) ?? RUNS);

async function measure(backend: BackendContext) {
  const receiver = await startForwardReceiver();
  try {
    const metrics: Metric[] = [];
    const figures: Record<string, unknown> = {};
    if (chosenRuns.has("ingest")) {
      const ingest = await ingestRuns(backend, receiver);
      metrics.push(...ingest.metrics);
      Object.assign(figures, ingest.figures);
    }
    const receiving = (backend: BackendContext, receiver: ForwardReceiver) =>
      receivingRun(backend, receiver, STEADY_RATE[backend.key]);
    const runs = {
      steady: steadyRun,
      outage: outageRun,
      replay: replayRun,
      hanging: hangingRun,
      cap: capRun,
      receiving,
    };
    for (const [name, run] of Object.entries(runs)) {
      if (!chosenRuns.has(name)) continue;
      const result = await run(backend, receiver);
      metrics.push(...result.metrics);
      figures[name] = result.figures;
    }
    metrics.push({
      metric: "forwards failing the signature check, or sent twice at once",
      value: receiver.problems.length,
      unit: "",
      target: { op: "<=", value: 0 },
    });
    return { metrics, ...figures, problems: receiver.problems.slice(0, 10) };
  } finally {
    await receiver.close();
  }
}

async function ingestRuns(backend: BackendContext, receiver: ForwardReceiver) {
  const pairs = [];
  for (let pair = 0; pair < INGEST_PAIRS; pair++) {
    pairs.push({
      without: await ingestRun(backend, receiver, "none"),
      withOne: await ingestRun(backend, receiver, "one"),
    });
  }
  const withEvery = await ingestRun(backend, receiver, "every");
  const withoutRatio = median(pairs.map((p) => p.without.ratio));
  const metrics: Metric[] = [
    { metric: "ingest ratio without destinations (median)", value: round(withoutRatio, 3), unit: "" },
    {
      metric: "ingest ratio with one active destination (median)",
      value: round(median(pairs.map((p) => p.withOne.ratio)), 3),
      unit: "",
    },
    {
      metric: "ingest ratio lost to one destination (median of pairs)",
      value: round(median(pairs.map((p) => p.without.ratio - p.withOne.ratio)), 3),
      unit: "",
      target: { op: "<=", value: 0.05 },
    },
    { metric: "ingest ratio with a destination per connection", value: round(withEvery.ratio, 3), unit: "" },
    {
      metric: "ingest ratio lost to forwarding every event",
      value: round(withoutRatio - withEvery.ratio, 3),
      unit: "",
    },
    {
      metric: "events forwarded during ingest, not delivered",
      value: sum(pairs, (p) => p.withOne.undelivered) + withEvery.undelivered,
      unit: "",
      target: { op: "<=", value: 0 },
    },
  ];
  return { metrics, figures: { ingestPairs: pairs, withEvery } };
}

/** Waits until the handler has gone `quietMs` without a new forward (the outbox is drained). */
async function untilQuiet(receiver: ForwardReceiver, quietMs = 2_000): Promise<void> {
  let seen = -1;
  while (seen !== receiver.delivered.size) {
    seen = receiver.delivered.size;
    await sleep(quietMs);
  }
}

const FORWARDING_WORDS: Record<Forwarding, string> = {
  none: "without destinations",
  one: "with one destination",
  every: "with a destination per connection",
};

async function ingestRun(backend: BackendContext, receiver: ForwardReceiver, forwarding: Forwarding) {
  receiver.reset();
  const { scenario, senders } = await forwardingScenario(`ingest-${forwarding}`, receiver, forwarding);
  try {
    const server = await benchConsole(scenario, FORWARD_ENV);
    let run;
    try {
      await sleep(2000);
      run = await runIngestPhases(server.url, senders, `${backend.key} ${FORWARDING_WORDS[forwarding]}`, {
        settle: forwarding === "none" ? undefined : () => untilQuiet(receiver),
      });
    } finally {
      await server.stop();
    }
    const stored = await count(scenario, sql`select count(*) as n from webhook_events`);
    const { ratio, durableRate, healthRate } = ingestRates(run.phases, stored - run.warmUpOk);
    const undelivered =
      forwarding !== "none"
        ? await count(scenario, sql`select count(*) as n from forward_deliveries where state <> 'delivered'`)
        : 0;
    return {
      ratio,
      eventsPerSecond: round(durableRate, 0),
      healthPerSecond: round(healthRate, 0),
      stored,
      forwarded: receiver.delivered.size,
      undelivered,
    };
  } finally {
    await scenario.dispose();
  }
}

async function steadyRun(backend: BackendContext, receiver: ForwardReceiver) {
  receiver.reset();
  const { scenario, senders } = await forwardingScenario("steady", receiver);
  try {
    const server = await benchConsole(scenario, FORWARD_ENV);
    let sent: { ok: number; seconds: number; p99Ms: number };
    try {
      const result = await sendEventsAtRate(server.url, senders, STEADY_EVENTS, STEADY_RATE[backend.key]);
      sent = { ok: result["2xx"], seconds: result.duration, p99Ms: result.latency.p99 };
      console.log(
        `  ${backend.key} steady: ${sent.ok} events stored in ${sent.seconds} s (p99 answer ${sent.p99Ms} ms); waiting for the forwards`,
      );
      await receiver.waitUntil(() => receiver.delivered.size >= sent.ok, SETTLE_MS);
    } finally {
      await server.stop();
    }
    const latency = await deliveryLatency(scenario);
    const figures = { events: sent.ok, sendSeconds: sent.seconds, answerP99Ms: sent.p99Ms, ...latency };
    const metrics: Metric[] = [
      {
        metric: "steady: events stored (at the backend's rate)",
        value: sent.ok,
        unit: "",
        display: `${sent.ok.toLocaleString("en")} at ${STEADY_RATE[backend.key]}/s`,
      },
      { metric: "steady: stored → delivered p50", value: latency.p50, unit: "ms" },
      { metric: "steady: stored → delivered p99", value: latency.p99, unit: "ms", target: { op: "<=", value: 2000 } },
      { metric: "steady: stored → delivered max", value: latency.max, unit: "ms" },
      {
        metric: "steady: forwards not delivered",
        value: latency.waiting + latency.failed,
        unit: "",
        target: { op: "<=", value: 0 },
      },
    ];
    return { metrics, figures };
  } finally {
    await scenario.dispose();
  }
}

async function outageRun(backend: BackendContext, receiver: ForwardReceiver) {
  receiver.reset();
  const { scenario, senders } = await forwardingScenario("outage", receiver);
  try {
    const server = await benchConsole(scenario, FORWARD_ENV);
    let figures;
    try {
      receiver.goDown(OUTAGE_SECONDS * 1000);
      const backUpAt = Date.now() + OUTAGE_SECONDS * 1000;
      const result = await sendEventsAtRate(
        server.url,
        senders,
        outageRate(backend) * OUTAGE_SECONDS * 2,
        outageRate(backend),
      );
      const stored = result["2xx"];
      console.log(
        `  ${backend.key} outage: ${stored} events stored, ${receiver.refusedWhileDown()} forwards refused while down; waiting for the retries`,
      );
      const allIn = await receiver.waitUntil(() => receiver.delivered.size >= stored, SETTLE_MS);
      figures = {
        stored,
        refusedWhileDown: receiver.refusedWhileDown(),
        delivered: receiver.delivered.size,
        recoverySeconds: allIn ? round((Date.now() - backUpAt) / 1000, 0) : null,
      };
    } finally {
      await server.stop();
    }
    const missing = figures.stored - figures.delivered;
    const metrics: Metric[] = [
      {
        metric: `outage: events stored over ${OUTAGE_SECONDS * 2} s`,
        value: figures.stored,
        unit: "",
        display: `${figures.stored.toLocaleString("en")} at ${outageRate(backend)}/s`,
      },
      { metric: "outage: forwards refused (503) while down", value: figures.refusedWhileDown, unit: "" },
      { metric: "outage: events never delivered", value: missing, unit: "", target: { op: "<=", value: 0 } },
      {
        metric: "outage: back up → every event delivered",
        value: figures.recoverySeconds,
        unit: "s",
        display: figures.recoverySeconds === null ? `not within ${SETTLE_MS / 1000} s` : undefined,
      },
      { metric: "outage: events delivered more than once", value: receiver.deliveredTwice(), unit: "" },
    ];
    return { metrics, figures };
  } finally {
    await scenario.dispose();
  }
}

async function replayRun(backend: BackendContext, receiver: ForwardReceiver) {
  receiver.reset();
  const scenario = await benchScenario(`${NAME}-replay`);
  try {
    const queued = await withDatabase(scenario, async (db) => {
      const [connection] = await insertBulkConnections(db, 1, { unsigned: 0 });
      console.log(`  ${backend.key} replay: loading ${REPLAY_EVENTS.toLocaleString("en")} events…`);
      await bulkLoad(db, { connections: [connection!], events: REPLAY_EVENTS, rejections: 0, days: 7 });
      const { readServerKeys } = await import("@/lib/connections/keys");
      receiver.acceptKeys(...(await readServerKeys(connection!.id)));
      const [destinationId] = await addDestinations(receiver.url, [connection!.id]);
      const { continueReplays, startReplay } = await import("@/lib/destinations/replay");
      const started = performance.now();
      const replay = await startReplay(ACTOR, {
        connectionId: connection!.id,
        destinationId: destinationId!,
        filters: "",
      });
      if (!replay.ok) throw new Error(replay.error);
      // Its queue is written in chunks after the start: all of it before the database is closed.
      await continueReplays();
      return { total: replay.total, queueMs: round(performance.now() - started, 0) };
    });
    // The clock runs from the console's start: its workers find the queued replay at once.
    const startedAt = Date.now();
    const server = await benchConsole(scenario, FORWARD_ENV);
    let seconds: number | null;
    try {
      const allIn = await receiver.waitUntil(() => receiver.delivered.size >= queued.total, SETTLE_MS * 5);
      seconds = allIn ? (receiver.lastNewDeliveryAt() - startedAt) / 1000 : null;
    } finally {
      await server.stop();
    }
    const rate = seconds === null ? null : round(queued.total / seconds, 0);
    const figures = { ...queued, seconds, eventsPerSecond: rate, delivered: receiver.delivered.size };
    console.log(`  ${backend.key} replay: ${figures.delivered} of ${queued.total} delivered in ${seconds} s`);
    const metrics: Metric[] = [
      {
        metric: "replay: events queued (in chunks)",
        value: queued.total,
        unit: "",
        display: `${queued.total.toLocaleString("en")} in ${queued.queueMs} ms`,
      },
      {
        metric: "replay: console start → last delivered",
        value: rate,
        unit: "ev/s",
        target: { op: ">=", postgres: 1000 },
      },
      {
        metric: "replay: events not delivered",
        value: queued.total - figures.delivered,
        unit: "",
        target: { op: "<=", value: 0 },
      },
    ];
    return { metrics, figures };
  } finally {
    await scenario.dispose();
  }
}
