/**
 * Fuzzer for the webhook receiver against a running server: a mix of valid events, redeliveries and broken requests,
 * deterministic from `seed` but for the signatures' timestamps, over node:http (duplicate headers, malformed paths,
 * half-sent bodies); each answer as docs/api.md's "POST /api/webhooks/{token}" says. The cases are in fuzz-cases/.
 */
import http from "node:http";
import https from "node:https";

import { planFuzzCases, type FuzzCase, type Tokens } from "./fuzz-cases/plan";

export type FuzzTarget = {
  baseUrl: string;
  signed: { token: string; keys: string[] };
  unsigned: { token: string };
  seed: number;
  requests: number;
};
export type FuzzReport = {
  requests: number;
  failures: string[];
  /**
   * Each event answered 200 and its number of 200s (a conflicting redelivery counts, its body is not kept), for
   * connections that start with no events.
   */
  expectedStored: { token: string; eventId: string; deliveries: number }[];
  neverInLogs: string[];
  statusCounts: Record<string, number>;
};

const CONCURRENCY = 16;
const MAX_FAILURE_LINES = 50;
const REQUEST_TIMEOUT_MS = 30_000;
/** An unknown token must be answered without reading the body: a half-sent body gets this long. */
const PARTIAL_BODY_TIMEOUT_MS = 5_000;
const KEPT_RESPONSE_BYTES = 16_384;

export type Answer =
  | { ok: true; status: number; headers: http.IncomingHttpHeaders; body: Buffer; ms: number }
  | { ok: false; error: string; ms: number };

type Failure = { kind: string; got: string; line: string };

/** For a caller that wants every answer (fuzz-cli's --timings and --dump); the harness needs none of it. */
export type FuzzObserver = { onAnswer?: (c: FuzzCase, answer: Answer, problem: string | undefined) => void };

export async function fuzzReceiver(target: FuzzTarget, observer: FuzzObserver = {}): Promise<FuzzReport> {
  const base = new URL(target.baseUrl);
  const client = base.protocol === "https:" ? https : http;
  const basePath = base.pathname.replace(/\/+$/, "");
  const tokens: Tokens = { signed: target.signed.token, unsigned: target.unsigned.token };
  const { cases, neverInLogs } = planFuzzCases(target.seed, target.requests);

  const agent = new client.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const statusCounts: Record<string, number> = {};
  const failures: Failure[] = [];
  /** Per event: the 200s its id got. */
  const stored = new Map<string, { conn: "signed" | "unsigned"; eventId: string; deliveries: number }>();

  const finished: Promise<void>[] = [];
  const markDone: (() => void)[] = [];
  for (let i = 0; i < cases.length; i++) finished.push(new Promise<void>((resolve) => markDone.push(resolve)));

  const send = (c: FuzzCase): Promise<Answer> =>
    new Promise((resolve) => {
      const started = performance.now();
      const body = typeof c.body === "function" ? c.body() : c.body;
      const headers: http.OutgoingHttpHeaders = { "user-agent": "tenant-console-fuzz" };
      if (c.contentType !== null) headers["content-type"] = c.contentType;
      for (const [name, value] of c.extraHeaders ?? []) headers[name] = value;
      if (c.sign) {
        const t = Math.floor(Date.now() / 1000) + (c.skew ?? 0);
        const values = c.sign(body ?? Buffer.alloc(0), t, target.signed.keys);
        if (values.length === 1) headers["x-signature-v2"] = values[0]!;
        else if (values.length > 1) headers["x-signature-v2"] = values; // one header line each
      }
      if (c.transfer === "partial") headers["content-length"] = String(c.declaredLength ?? 0);
      else if (c.transfer === "length" && body) headers["content-length"] = String(body.length);
      // Big and half-sent bodies get their own connection, so an early close cannot hit a pooled one.
      const ownConnection = c.transfer !== "length" || (body?.length ?? 0) > 65_536;

      let settled = false;
      const settle = (answer: Answer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(answer);
      };
      const req = client.request({
        protocol: base.protocol,
        hostname: base.hostname,
        port: base.port,
        method: c.method,
        path: basePath + c.path.make(tokens),
        headers,
        agent: ownConnection ? false : agent,
      });
      const timeoutMs = c.transfer === "partial" ? PARTIAL_BODY_TIMEOUT_MS : REQUEST_TIMEOUT_MS;
      const timer = setTimeout(() => {
        settle({ ok: false, error: `no answer within ${timeoutMs / 1000} s`, ms: performance.now() - started });
        req.destroy();
      }, timeoutMs);
      req.on("error", (error: NodeJS.ErrnoException) =>
        settle({ ok: false, error: error.code ?? error.message, ms: performance.now() - started }),
      );
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on("data", (chunk: Buffer) => {
          if (kept < KEPT_RESPONSE_BYTES) chunks.push(chunk);
          kept += chunk.length;
        });
        res.on("error", (error: NodeJS.ErrnoException) =>
          settle({ ok: false, error: `response ${error.code ?? error.message}`, ms: performance.now() - started }),
        );
        res.on("end", () => {
          settle({
            ok: true,
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            ms: performance.now() - started,
          });
          if (c.transfer === "partial" || ownConnection) req.destroy();
        });
      });

      if (!body) return void req.end();
      if (c.transfer === "partial") return void req.write(body); // and never end: the rest is never sent
      if (c.transfer === "chunked") {
        const pieces = 4;
        const size = Math.ceil(body.length / pieces);
        for (let at = 0; at < body.length; at += size) req.write(body.subarray(at, at + size));
        return void req.end();
      }
      req.end(body);
    });

  const record = (c: FuzzCase, answer: Answer) => {
    const statusKey = answer.ok ? String(answer.status) : "network_error";
    statusCounts[statusKey] = (statusCounts[statusKey] ?? 0) + 1;
    if (answer.ok && answer.status === 200 && c.event) {
      const entry = stored.get(c.event.key);
      if (!entry) stored.set(c.event.key, { conn: c.event.conn, eventId: c.event.eventId, deliveries: 1 });
      else entry.deliveries++; // a conflicting redelivery too: answered 200, counted, the first body kept
    }
    const problem = checkAnswer(c, answer);
    observer.onAnswer?.(c, answer, problem);
    if (problem) {
      const got = answer.ok ? String(answer.status) : "network_error";
      failures.push({ kind: c.kind, got, line: `${c.kind} #${c.index}: ${c.method} ${shortPath(c)} → ${problem}` });
    }
  };

  const run = async (c: FuzzCase) => {
    try {
      if (c.after !== undefined) await finished[c.after];
      record(c, await send(c));
    } catch (error) {
      statusCounts.fuzzer_error = (statusCounts.fuzzer_error ?? 0) + 1;
      failures.push({
        kind: c.kind,
        got: "fuzzer_error",
        line: `${c.kind} #${c.index}: fuzzer error ${oneLine(String(error), 100)}`,
      });
    } finally {
      markDone[c.index]!();
    }
  };
  // Half-sent bodies wait for an answer that may never come (up to PARTIAL_BODY_TIMEOUT_MS): they run
  // beside the pool (few of them, each on its own connection) rather than hold one of its slots.
  const aside: Promise<void>[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++]!;
      if (c.transfer === "partial") aside.push(run(c));
      else await run(c);
    }
  };
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await Promise.all(aside);
  } finally {
    agent.destroy();
  }

  return {
    requests: cases.length,
    failures: summarise(failures, cases.length),
    expectedStored: [...stored.values()].map((e) => ({
      token: tokens[e.conn],
      eventId: e.eventId,
      deliveries: e.deliveries,
    })),
    neverInLogs,
    statusCounts,
  };
}

/** What is wrong with an answer, in a few words (and at most ~80 characters of its body); undefined if nothing. */
export function checkAnswer(c: FuzzCase, answer: Answer): string | undefined {
  const expected = c.expect.status.join("|");
  if (!answer.ok) return `expected ${expected}, got no answer (${answer.error})`;
  const { status, headers, body } = answer;
  const contentType = String(headers["content-type"] ?? "");
  const isHead = c.method === "HEAD";
  const problems: string[] = [];
  if (!c.expect.status.includes(status)) problems.push(`expected ${expected}, got ${status}`);
  if (status >= 500) problems.push("5xx");
  if (status >= 300 && status < 400) problems.push(`redirect to ${oneLine(String(headers.location ?? "?"), 40)}`);
  if (/text\/html/i.test(contentType)) problems.push("text/html");
  if (!isHead && !/^application\/json\s*(;|$)/i.test(contentType))
    problems.push(`Content-Type ${oneLine(contentType || "(none)", 40)}`);
  if (status === 405) {
    const allow = String(headers.allow ?? "");
    if (allow.trim() !== "POST") problems.push(`Allow: ${oneLine(allow || "(none)", 40)}`);
  }
  if (isHead && body.length > 0) problems.push(`HEAD answered with a ${body.length}-byte body`);
  if (!isHead) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch {
      problems.push("body not JSON");
    }
    if (parsed !== undefined) {
      const o = (parsed && typeof parsed === "object" ? parsed : {}) as Record<string, unknown>;
      if (status === 200) {
        if (o.success !== true || Object.keys(o).length !== 1) problems.push('body is not {"success":true}');
      } else if (typeof o.error !== "string" || typeof o.errorDescription !== "string") {
        problems.push("body lacks error/errorDescription strings");
      } else {
        if (status === 404 && o.error !== "not_found") problems.push(`error "${oneLine(o.error, 30)}" not "not_found"`);
        if (
          status === 400 &&
          c.expect.field &&
          c.expect.status.includes(400) &&
          !o.errorDescription.includes(c.expect.field)
        ) {
          problems.push(`errorDescription does not name ${c.expect.field}`);
        }
      }
    }
  }
  if (problems.length === 0) return undefined;
  const snippet = isHead || body.length === 0 ? "" : ` ${JSON.stringify(oneLine(body.toString("utf8"), 80))}`;
  return `${problems.join("; ")} [${oneLine(contentType || "no content-type", 40)}]${snippet}`;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/[\u0000-\u001f\u007f]/g, " ");
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function shortPath(c: FuzzCase): string {
  const label = c.path.label;
  return label.length > 60 ? `${label.slice(0, 59)}…` : label;
}

/**
 * At most MAX_FAILURE_LINES lines: first one of each (case kind, answer) pair, then the rest in order;
 * then one line with the total and the count per case kind.
 */
function summarise(failures: Failure[], requests: number): string[] {
  if (failures.length === 0) return [];
  const seen = new Set<string>();
  const first: Failure[] = [];
  const rest: Failure[] = [];
  for (const f of failures) {
    const key = `${f.kind}|${f.got}`;
    (seen.has(key) ? rest : first).push(f);
    seen.add(key);
  }
  const lines = [...first, ...rest].slice(0, MAX_FAILURE_LINES).map((f) => f.line);
  const byKind = new Map<string, number>();
  for (const f of failures) byKind.set(`${f.kind}→${f.got}`, (byKind.get(`${f.kind}→${f.got}`) ?? 0) + 1);
  const counts = [...byKind.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ×${n}`);
  lines.push(
    `${failures.length} of ${requests} requests broke the contract (${failures.length - Math.min(failures.length, MAX_FAILURE_LINES)} not listed); by case kind→answer: ${counts.join(", ")}`,
  );
  return lines;
}
