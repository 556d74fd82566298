/**
 * The traces part: what lib/telemetry costs while tracing is off, in-process. The same async work is called plain and
 * through withSpan (as storing a webhook and each forward attempt are), in alternating rounds of one run, and
 * currentTraceParent is timed beside an empty call (docs/performance.md, "Traces"). No database: both columns are
 * the same measurement made twice.
 */
import { measuredPart, median, round } from "./support/part";
import type { Metric } from "./support/report";

const NAME = "traces";
const CALLS = Number(process.env.BENCH_TRACES_CALLS ?? 200_000);
const ROUNDS = Number(process.env.BENCH_TRACES_ROUNDS ?? 9);
const TARGET_NS = 100;

export const tracesPart = measuredPart(
  NAME,
  `Traces off: the cost of a span helper per call (median of ${ROUNDS} rounds of ${CALLS.toLocaleString("en")} calls)`,
  { overhead: `withSpan while off adds ≤ ${TARGET_NS} ns to a call (storing a webhook takes milliseconds)` },
  measure,
);

/** Nanoseconds per call of `call`, over CALLS sequential awaited calls. */
async function nsPerCall(call: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) await call();
  return Number(process.hrtime.bigint() - start) / CALLS;
}

async function measure() {
  const { currentTraceParent, tracingOn, withSpan } = await import("@/lib/telemetry/tracing");
  if (tracingOn()) throw new Error("the traces part measures tracing off: unset the OTEL_* variables");
  let sink = 0;
  const work = async () => ++sink;
  const attributes = { "console.connection_id": "00000000-0000-4000-8000-000000000000" };
  const variants = {
    plain: () => work(),
    withSpan: () => withSpan("webhook.store", attributes, work),
    empty: async () => null,
    traceParent: async () => currentTraceParent(),
  };
  const samples = Object.fromEntries(Object.keys(variants).map((name) => [name, [] as number[]])) as Record<
    keyof typeof variants,
    number[]
  >;
  // Warm-up, then the variants in turn within each round, so a slower stretch of the machine falls on all of them.
  for (const call of Object.values(variants)) await nsPerCall(call);
  for (let r = 0; r < ROUNDS; r++)
    for (const [name, call] of Object.entries(variants))
      samples[name as keyof typeof variants].push(await nsPerCall(call));
  const ns = (name: keyof typeof variants) => round(median(samples[name]), 1);
  const overhead = round(ns("withSpan") - ns("plain"), 1);
  const metrics: Metric[] = [
    { metric: "a plain async call", value: ns("plain"), unit: "ns" },
    { metric: "the same call through withSpan, tracing off", value: ns("withSpan"), unit: "ns" },
    { metric: "withSpan's overhead", value: overhead, unit: "ns", target: { op: "<=", value: TARGET_NS } },
    { metric: "an empty async call", value: ns("empty"), unit: "ns" },
    { metric: "currentTraceParent, tracing off", value: ns("traceParent"), unit: "ns" },
  ];
  return { metrics, calls: CALLS, rounds: ROUNDS, samples, sink };
}
