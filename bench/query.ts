/**
 * The query part: the log API for every filter the page offers, at a tenth of the events and at full size, and bytes
 * on disk per event; the full dataset is left for the export and page parts (docs/performance.md, "How each part
 * measures"). Results: bench/results/query.json.
 */
import type { ConsoleServer } from "./reliability/server";
import { fetchAs, signIn, type Session } from "./reliability/session";
import { benchUser, withConsole } from "./support/console";
import {
  appendEvents,
  createDataset,
  FULL_EVENTS,
  shareDataset,
  type Dataset,
  type LoadFigures,
} from "./support/dataset";
import { measuredPart, round } from "./support/part";
import type { Metric } from "./support/report";
import { timeRuns, type Timing } from "./support/timing";

const NAME = "query";
const RUNS = Math.max(30, Number(process.env.BENCH_QUERY_RUNS ?? 30));
const SMALL_EVENTS = Math.round(FULL_EVENTS / 10);
const TARGET_P95_MS = 20;
const MAX_GROWTH = 2;
const TARGET_BYTES_PER_EVENT = 2048;

const TARGETS = {
  p95: `every log query's p95 ≤ ${TARGET_P95_MS} ms at ${size(FULL_EVENTS)} (${RUNS} requests each, over HTTP)`,
  flat: `flat from ${size(SMALL_EVENTS)} to ${size(FULL_EVENTS)}: no p95 more than ${MAX_GROWTH}× its p95 at ${size(SMALL_EVENTS)}`,
  disk: `≤ ${TARGET_BYTES_PER_EVENT} bytes on disk per event, indexes included`,
};

export const queryPart = measuredPart(
  NAME,
  `Log API queries at ${size(FULL_EVENTS)} events (p95 ms of ${RUNS} requests; p50, p95 at ${size(SMALL_EVENTS)} and first-page rows beside it)`,
  TARGETS,
  measure,
);

type Query = {
  name: string;
  params: Record<string, string>;
  /** Pages to follow before the timed one. */ skipPages?: number;
};
type Measurement = Timing & { firstPageRows: number; page: number };

/** Every filter of the log page, alone and in combinations, as the page asks the API for them. */
function logQueries(dataset: Dataset, now: number): Query[] {
  const selected = { connectionId: dataset.connections[0]!.id };
  const all = { connectionId: "all" };
  const day = 86_400_000;
  const iso = (msAgo: number) => new Date(now - msAgo).toISOString();
  const expiry1d = { expiresFrom: iso(10 * day), expiresTo: iso(9 * day) };
  const expiry30d = { expiresFrom: iso(40 * day), expiresTo: iso(10 * day) };
  return [
    { name: "default view (selected connection)", params: selected },
    { name: "all connections", params: all },
    { name: "smallest connection", params: { connectionId: dataset.connections.at(-1)!.id } },
    { name: "type=all", params: { ...selected, type: "all" } },
    { name: "type=authenticator.deleted", params: { ...selected, type: "authenticator.deleted" } },
    { name: "method=SMS", params: { ...selected, verificationMethod: "SMS" } },
    { name: "method=WHATSAPP (rare)", params: { ...selected, verificationMethod: "WHATSAPP" } },
    { name: "platform=ANDROID", params: { ...selected, devicePlatform: "ANDROID" } },
    // About five events per user at 1M: over every connection, so that the exact id finds some.
    { name: "user id exact, all connections", params: { ...all, userId: "usr_4242" } },
    { name: "user id prefix usr_42", params: { ...selected, userId: "usr_42", userIdMatch: "prefix" } },
    { name: "user id prefix, all connections", params: { ...all, userId: "usr_42", userIdMatch: "prefix" } },
    { name: "user authenticator id", params: { ...all, userAuthenticatorId: "ua_777" } },
    { name: "received=1h", params: { ...selected, received: "1h" } },
    { name: "received=24h", params: { ...selected, received: "24h" } },
    { name: "received=7d", params: { ...selected, received: "7d" } },
    {
      name: "received from–to (1 day, 30 days ago)",
      params: { ...selected, receivedFrom: iso(31 * day), receivedTo: iso(30 * day) },
    },
    { name: "expiry range 1 day", params: { ...selected, ...expiry1d } },
    { name: "expiry range 30 days", params: { ...selected, ...expiry30d } },
    { name: "expiry range 1 day, all connections", params: { ...all, ...expiry1d } },
    { name: "test=only", params: { ...selected, test: "only" } },
    { name: "test=exclude", params: { ...selected, test: "exclude" } },
    { name: "delay=lt1m", params: { ...selected, delay: "lt1m" } },
    { name: "delay=gt24h", params: { ...selected, delay: "gt24h" } },
    { name: "method+platform", params: { ...selected, verificationMethod: "SMS", devicePlatform: "IOS" } },
    {
      name: "method+platform, all connections",
      params: { ...all, verificationMethod: "PASSKEY", devicePlatform: "ANDROID" },
    },
    {
      name: "method+platform+received=7d",
      params: { ...selected, verificationMethod: "SMS", devicePlatform: "IOS", received: "7d" },
    },
    { name: "platform+delay=gt24h", params: { ...selected, devicePlatform: "IOS", delay: "gt24h" } },
    {
      name: "user prefix+method",
      params: { ...selected, userId: "usr_42", userIdMatch: "prefix", verificationMethod: "PUSH" },
    },
    { name: "expiry 1 day+method", params: { ...selected, ...expiry1d, verificationMethod: "EMAIL_OTP" } },
    { name: "received=24h+delay=6h-24h", params: { ...selected, received: "24h", delay: "6h-24h" } },
    { name: "test=only, type=all, all connections", params: { ...all, type: "all", test: "only" } },
    {
      name: "type=all+platform+delay=1h-6h",
      params: { ...selected, type: "all", devicePlatform: "ANDROID", delay: "1h-6h" },
    },
    {
      name: "0-match: method that does not exist+platform",
      params: { ...selected, verificationMethod: "NO_SUCH_METHOD", devicePlatform: "IOS" },
    },
    { name: "0-match: unknown user, all connections", params: { ...all, userId: "usr_nobody" } },
    { name: "limit=200", params: { ...selected, limit: "200" } },
    { name: "page 2 (default view)", params: selected, skipPages: 1 },
    { name: "page 100 (default view)", params: selected, skipPages: 99 },
    {
      name: "page 2 of method+platform",
      params: { ...selected, verificationMethod: "SMS", devicePlatform: "IOS" },
      skipPages: 1,
    },
  ];
}

type Page = { events: unknown[]; nextCursor: string | null };

async function getPage(server: ConsoleServer, session: Session, params: Record<string, string>): Promise<Page> {
  const response = await fetchAs(session, `${server.url}/api/webhook-events?${new URLSearchParams(params)}`);
  if (response.status !== 200)
    throw new Error(
      `GET /api/webhook-events?${new URLSearchParams(params)}: ${response.status} ${response.error ?? response.body.slice(0, 300)}`,
    );
  return JSON.parse(response.body) as Page;
}

/** Every query timed through the API of a console started on the dataset (then stopped). */
async function timeQueries(dataset: Dataset, now: number): Promise<Record<string, Measurement>> {
  return withConsole(dataset.scenario, async (server) => {
    const session = await signIn(server.url, benchUser);
    const timings: Record<string, Measurement> = {};
    for (const query of logQueries(dataset, now)) {
      let params = query.params;
      let page = 1;
      // Follow nextCursor as the pager does (a small BENCH_EVENTS may end the log sooner: the last page is timed then).
      for (; page <= (query.skipPages ?? 0); page++) {
        const { nextCursor } = await getPage(server, session, params);
        if (!nextCursor) break;
        params = { ...query.params, cursor: nextCursor };
      }
      const firstPageRows = (await getPage(server, session, params)).events.length;
      timings[query.name] = { ...(await timeRuns(RUNS, () => getPage(server, session, params))), firstPageRows, page };
    }
    return timings;
  });
}

async function measure() {
  const dataset = await createDataset(NAME);
  let shared = false;
  try {
    const now = Date.now();
    console.log(`Loading ${SMALL_EVENTS.toLocaleString("en")} events…`);
    const smallLoad = await appendEvents(dataset, SMALL_EVENTS);
    const small = await timeQueries(dataset, now);
    console.log(`Loading ${(FULL_EVENTS - SMALL_EVENTS).toLocaleString("en")} more…`);
    const fullLoad = await appendEvents(dataset, FULL_EVENTS - SMALL_EVENTS);
    const full = await timeQueries(dataset, now);
    shareDataset(dataset);
    shared = true;
    return {
      metrics: metrics(small, full, smallLoad, fullLoad),
      runs: RUNS,
      connections: dataset.connections.length,
      loads: [smallLoad, fullLoad],
      small,
      full,
    };
  } finally {
    if (!shared) await dataset.dispose();
  }
}

function metrics(
  small: Record<string, Measurement>,
  full: Record<string, Measurement>,
  smallLoad: LoadFigures,
  fullLoad: LoadFigures,
): Metric[] {
  const growth = (name: string) => full[name]!.p95Ms / small[name]!.p95Ms;
  const names = Object.keys(full);
  const worst = (timings: Record<string, Measurement>) =>
    names.reduce((a, b) => (timings[b]!.p95Ms > timings[a]!.p95Ms ? b : a));
  const mostGrown = names.reduce((a, b) => (growth(b) > growth(a) ? b : a));
  const disk = (load: LoadFigures): Metric => ({
    metric: `bytes on disk per event at ${size(load.rows)}`,
    value: load.bytesPerEvent,
    unit: "B",
    display: `${load.bytesPerEvent} B (${round(load.tableBytes / 1024 / 1024)} MiB)`,
    target: { op: "<=", value: TARGET_BYTES_PER_EVENT },
  });
  return [
    {
      metric: "bulk load + vacuum analyze",
      value: null,
      unit: "s",
      display: `${smallLoad.loadSeconds}+${smallLoad.vacuumAnalyzeSeconds} s, ${fullLoad.loadSeconds}+${fullLoad.vacuumAnalyzeSeconds} s`,
    },
    disk(smallLoad),
    disk(fullLoad),
    ...names.map((name): Metric => ({
      metric: name,
      value: full[name]!.p95Ms,
      unit: "ms",
      display: `${full[name]!.p95Ms} (p50 ${full[name]!.p50Ms}; ${size(smallLoad.rows)} ${small[name]!.p95Ms}; ${full[name]!.firstPageRows} rows${full[name]!.page > 1 ? ` on page ${full[name]!.page}` : ""})`,
      target: { op: "<=", value: TARGET_P95_MS },
    })),
    {
      metric: `slowest p95 at ${size(smallLoad.rows)}`,
      value: small[worst(small)]!.p95Ms,
      unit: "ms",
      display: `${small[worst(small)]!.p95Ms} ms (${worst(small)})`,
    },
    {
      metric: `slowest p95 at ${size(fullLoad.rows)}`,
      value: full[worst(full)]!.p95Ms,
      unit: "ms",
      display: `${full[worst(full)]!.p95Ms} ms (${worst(full)})`,
      target: { op: "<=", value: TARGET_P95_MS },
    },
    {
      metric: `most grown p95, ${size(smallLoad.rows)} → ${size(fullLoad.rows)}`,
      value: round(growth(mostGrown), 2),
      unit: "×",
      display: `${round(growth(mostGrown), 2)}× (${mostGrown})`,
      target: { op: "<=", value: MAX_GROWTH },
    },
  ];
}

function size(n: number): string {
  return n >= 1_000_000 && n % 1_000_000 === 0 ? `${n / 1_000_000}M` : n >= 1000 ? `${round(n / 1000)}k` : String(n);
}
