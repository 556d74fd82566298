/**
 * The signin-flood and token-flood parts: the webhook receiver's p99 beside 50 connections of wrong passwords or
 * made-up API tokens, each from a new address so no throttle trips and every guess is checked (docs/performance.md,
 * "Token flood", "How each part measures"). Results: bench/results/<part>.json.
 */
import { randomBytes } from "node:crypto";

import autocannon from "autocannon";

import { API_TOKEN_PREFIX } from "@/lib/auth/api-token-format";

import { webhookRequests, webhookSenders } from "./ingest";
import { sampleRss, type ConsoleServer } from "./reliability/server";
import { benchConsole, benchScenario } from "./support/console";
import { measuredPart, MiB, round } from "./support/part";
import type { Metric } from "./support/report";
import { percentile } from "./support/timing";

const PHASE_SECONDS = Number(process.env.BENCH_SIGNIN_PHASE_SECONDS ?? 10);
const WEBHOOK_RATE = Number(process.env.BENCH_SIGNIN_WEBHOOK_RATE ?? 100);
const WEBHOOK_CONNECTIONS = 10;
const FLOOD_CONNECTIONS = 50;
const WEBHOOK_URLS = 4;
const WARM_UP_REQUESTS = 200;
const P99_RATIO_TARGET = 1.5;

/** What one flood sends: its path, and each guess's method, headers and body (n counts the guesses). */
type Guesses = {
  method: "GET" | "POST";
  path: string;
  guess: (n: number) => { headers: Record<string, string>; body?: string };
};

function floodPart(name: string, title: string, guesses: string, prepare: (server: ConsoleServer) => Promise<Guesses>) {
  const targets = {
    p99: `webhook p99 during a ${FLOOD_CONNECTIONS}-way flood of ${guesses} ≤ ${P99_RATIO_TARGET} × webhook p99 without it (same server, same run)`,
    answered: "every webhook answered 2xx in every phase",
  };
  const description = `${title}: webhooks at ${WEBHOOK_RATE}/s, ${PHASE_SECONDS} s quiet → ${PHASE_SECONDS} s beside ${FLOOD_CONNECTIONS} connections of ${guesses} → ${PHASE_SECONDS} s quiet`;
  return measuredPart(name, description, targets, () => measure(name, prepare));
}

/** One autocannon run whose every response time is kept (its own percentiles cannot be merged across runs). */
type Run = { result: autocannon.Result; latenciesMs: number[] };

function timedLoad(options: autocannon.Options): Promise<Run> {
  const latenciesMs: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error: unknown, result) =>
      error ? reject(error) : resolve({ result, latenciesMs }),
    );
    instance.on("response", (_client, _status, _bytes, responseTime) => latenciesMs.push(responseTime));
  });
}

/** Webhook deliveries at the steady rate, for `seconds` (or `amount` requests). */
function webhooks(
  server: ConsoleServer,
  request: autocannon.Request,
  limit: { seconds: number } | { amount: number },
): Promise<Run> {
  return timedLoad({
    url: server.url,
    connections: WEBHOOK_CONNECTIONS,
    overallRate: WEBHOOK_RATE,
    requests: [request],
    ...("seconds" in limit ? { duration: limit.seconds } : { amount: limit.amount }),
  });
}

/** next-auth's CSRF token and the cookie it is bound to: one pair serves every attempt of the flood. */
async function csrf(server: ConsoleServer): Promise<{ csrfToken: string; cookie: string }> {
  const response = await fetch(`${server.url}/api/auth/csrf`);
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  return { csrfToken, cookie };
}

/** Wrong passwords for ever new emails. */
async function wrongPasswords(server: ConsoleServer): Promise<Guesses> {
  const { csrfToken, cookie } = await csrf(server);
  return {
    method: "POST",
    path: "/api/auth/callback/credentials",
    guess: (n) => ({
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({
        csrfToken,
        email: `flood-${n}@bench.test`,
        password: "not-the-password",
        callbackUrl: `${server.url}/`,
        json: "true",
      }).toString(),
    }),
  };
}

/** Made-up API tokens, well formed, each new. */
async function madeUpTokens(): Promise<Guesses> {
  return {
    method: "GET",
    path: "/api/webhook-events?limit=1",
    guess: () => ({ headers: { authorization: `Bearer ${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}` } }),
  };
}

export const signinFloodPart = floodPart("signin-flood", "Sign-in flood", "wrong passwords", wrongPasswords);
export const tokenFloodPart = floodPart("token-flood", "Token flood", "made-up API tokens", madeUpTokens);

/** The guesses from ever new addresses (198.18.0.0/15, the benchmarking range: a header, no traffic). */
function flood(server: ConsoleServer, guesses: Guesses, limit: { seconds: number } | { amount: number }): Promise<Run> {
  let n = 0;
  return timedLoad({
    url: server.url,
    connections: FLOOD_CONNECTIONS,
    ...("seconds" in limit ? { duration: limit.seconds } : { amount: limit.amount }),
    requests: [
      {
        method: guesses.method,
        path: guesses.path,
        setupRequest: (request) => {
          n++;
          const address = `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}`;
          const { headers, body } = guesses.guess(n);
          return {
            ...request,
            headers: { ...headers, "x-forwarded-for": address },
            ...(body === undefined ? {} : { body }),
          };
        },
      },
    ],
  });
}

async function measure(name: string, prepare: (server: ConsoleServer) => Promise<Guesses>) {
  const scenario = await benchScenario(name);
  try {
    const senders = await webhookSenders(scenario, WEBHOOK_URLS);
    // One trusted proxy: each flood request's X-Forwarded-For is its own address.
    const server = await benchConsole(scenario, { CONSOLE_TRUSTED_PROXY_HOPS: "1" });
    const request = webhookRequests(senders);
    try {
      const guesses = await prepare(server);
      // Next loads a route's code on its first request, and the first sign-in hashes the decoy password.
      await webhooks(server, request, { amount: WARM_UP_REQUESTS });
      // autocannon sends at least one request per connection.
      await flood(server, guesses, { amount: FLOOD_CONNECTIONS });
      const quietBefore = await webhooks(server, request, { seconds: PHASE_SECONDS });
      const sampler = sampleRss(server.child.pid!, 200);
      const [duringFlood, floodRun] = await Promise.all([
        webhooks(server, request, { seconds: PHASE_SECONDS }),
        flood(server, guesses, { seconds: PHASE_SECONDS }),
      ]);
      const rssPeak = Math.max(...sampler.stop().map((s) => s.bytes));
      const quietAfter = await webhooks(server, request, { seconds: PHASE_SECONDS });
      return figures({ quietBefore, duringFlood, quietAfter, floodRun, rssPeak });
    } finally {
      await server.stop();
    }
  } finally {
    await scenario.dispose();
  }
}

function figures(runs: { quietBefore: Run; duringFlood: Run; quietAfter: Run; floodRun: Run; rssPeak: number }) {
  const { quietBefore, duringFlood, quietAfter, floodRun } = runs;
  const sorted = (...of: Run[]) => of.flatMap((r) => r.latenciesMs).sort((a, b) => a - b);
  const quiet = sorted(quietBefore, quietAfter);
  const flooded = sorted(duringFlood);
  const p = (values: number[], q: number) => (values.length > 0 ? percentile(values, q) : 0);
  const quietP99 = p(quiet, 99);
  const floodP99 = p(flooded, 99);
  const status = (run: Run, code: number) => run.result.statusCodeStats?.[`${code}`]?.count ?? 0;
  const perSecond = (run: Run, count: number) => round(count / run.result.duration, 0);
  const notOk = (run: Run) => run.result.non2xx + run.result.errors;
  const metrics: Metric[] = [
    {
      metric: "webhook p50 / p99 quiet (both phases)",
      value: null,
      unit: "ms",
      display: `${p(quiet, 50)} / ${quietP99} ms`,
    },
    {
      metric: "webhook p50 / p99 during the flood",
      value: null,
      unit: "ms",
      display: `${p(flooded, 50)} / ${floodP99} ms`,
    },
    {
      metric: "webhook p99 flood ÷ quiet",
      value: quietP99 > 0 ? round(floodP99 / quietP99, 2) : null,
      unit: "",
      target: { op: "<=", value: P99_RATIO_TARGET },
    },
    {
      metric: "webhooks answered/s quiet, flood, quiet",
      value: null,
      unit: "req/s",
      display: [quietBefore, duringFlood, quietAfter].map((r) => perSecond(r, r.result.requests.total)).join(", "),
    },
    {
      metric: "webhooks not 2xx (all phases)",
      value: notOk(quietBefore) + notOk(duringFlood) + notOk(quietAfter),
      unit: "",
      target: { op: "<=", value: 0 },
    },
    { metric: "flood answers/s", value: perSecond(floodRun, floodRun.result.requests.total), unit: "req/s" },
    { metric: "flood guesses checked/s (401)", value: perSecond(floodRun, status(floodRun, 401)), unit: "req/s" },
    { metric: "flood refused/s (429)", value: perSecond(floodRun, status(floodRun, 429)), unit: "req/s" },
    {
      metric: "flood p50 / p99",
      value: null,
      unit: "ms",
      display: `${floodRun.result.latency.p50} / ${floodRun.result.latency.p99} ms`,
    },
    { metric: "console RSS peak during the flood", value: round(runs.rssPeak / MiB), unit: "MiB" },
  ];
  const phase = (run: Run) => ({
    seconds: run.result.duration,
    answered: run.result.requests.total,
    statusCodes: run.result.statusCodeStats,
    errors: run.result.errors,
    timeouts: run.result.timeouts,
  });
  return {
    metrics,
    webhookRate: WEBHOOK_RATE,
    floodConnections: FLOOD_CONNECTIONS,
    webhookLatencyMs: {
      quiet: { p50: p(quiet, 50), p99: quietP99, max: quiet.at(-1) ?? 0 },
      flood: { p50: p(flooded, 50), p99: floodP99, max: flooded.at(-1) ?? 0 },
    },
    phases: {
      quietBefore: phase(quietBefore),
      duringFlood: phase(duringFlood),
      quietAfter: phase(quietAfter),
      flood: phase(floodRun),
    },
  };
}
