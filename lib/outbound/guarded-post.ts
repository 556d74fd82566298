import "server-only";

import http from "node:http";
import https from "node:https";
import { StringDecoder } from "node:string_decoder";

import {
  checkDestinationUrl,
  guardedLookup,
  RefusedAddressError,
  resolveWithDns,
  type OutboundPolicy,
  type ResolveAll,
} from "./address-policy";
import { NETWORK_ERRORS } from "./network-errors";

/**
 * The one POST to a URL someone typed: the address policy checked before and while connecting, no redirect
 * followed, one deadline over the whole exchange, at most maxResponseBytes read, connections kept alive per host
 * (poolFor). It logs nothing: a destination's URL, headers and body are the tenant's.
 */

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 4096;

export type GuardedPostOptions = {
  headers?: Readonly<Record<string, string>>;
  body: string | Uint8Array;
  timeoutMs?: number;
  maxResponseBytes?: number;
  policy: OutboundPolicy;
  /** Stands in for dns.lookup, so a test can make a name resolve to the address it needs. */
  lookup?: ResolveAll;
  /** Ends the exchange at once when aborted (the process stopping): failed with reason "aborted". */
  signal?: AbortSignal;
};

export type GuardedPostFailure = "refused_address" | "invalid_url" | "timeout" | "network" | "aborted";

type Outcome =
  | { kind: "answered"; status: number; body: string; truncated: boolean }
  | { kind: "failed"; reason: GuardedPostFailure; words: string };

export type GuardedPostResult = Outcome & { latencyMs: number };

/** A request's error in words: from its code only, as a message may quote the address or the URL. */
function networkWords(error: NodeJS.ErrnoException): string {
  // Node's words for a connection closed before any answer, under the same code as a reset.
  if (error.message === "socket hang up") return "the connection closed without an answer";
  if (!error.code) return "a network error";
  return NETWORK_ERRORS[error.code] ?? `a network error (${error.code})`;
}

/** How long a pooled connection may sit idle before it is closed (less when the server announces less). */
const IDLE_CONNECTION_MS = 4_000;

/** A policy's agents, and the guardedLookup they connect through (a request on a connection of its own uses it too). */
type Pool = { lookup: ReturnType<typeof guardedLookup>; "http:": http.Agent; "https:": https.Agent };
/**
 * Keep-alive pools, one per resolver and allowed-hosts list: a pooled connection was opened through guardedLookup
 * to its pool's host and port, so reusing it checks nothing less than a new one (a later DNS answer cannot move an
 * open connection).
 */
const pools = new WeakMap<ResolveAll, Map<string, Pool>>();

function poolFor(policy: OutboundPolicy, resolveAll: ResolveAll): Pool {
  let byPolicy = pools.get(resolveAll);
  if (!byPolicy) pools.set(resolveAll, (byPolicy = new Map()));
  const key = JSON.stringify(policy.allowedHosts);
  let pool = byPolicy.get(key);
  if (!pool) {
    const options = { keepAlive: true, timeout: IDLE_CONNECTION_MS, lookup: guardedLookup(policy, resolveAll) };
    pool = { lookup: options.lookup, "http:": new http.Agent(options), "https:": new https.Agent(options) };
    byPolicy.set(key, pool);
  }
  return pool;
}

export function postGuarded(url: string | URL, options: GuardedPostOptions): Promise<GuardedPostResult> {
  const started = performance.now();
  const latencyMs = () => Math.round(performance.now() - started);
  const {
    policy,
    timeoutMs = DEFAULT_TIMEOUT_MS,
    maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES,
    lookup: resolveAll = resolveWithDns,
    signal,
  } = options;
  const abortedWords = "aborted before an answer (the console is stopping)";
  if (signal?.aborted)
    return Promise.resolve({ kind: "failed", reason: "aborted", words: abortedWords, latencyMs: latencyMs() });

  const checked = checkDestinationUrl(String(url), policy);
  if (!checked.ok) {
    const reason = checked.rule === "refused_address" ? "refused_address" : "invalid_url";
    return Promise.resolve({ kind: "failed", reason, words: checked.description, latencyMs: latencyMs() });
  }
  const target = checked.url;
  const scheme = target.protocol === "https:" ? "https:" : "http:";
  const body = typeof options.body === "string" ? Buffer.from(options.body) : options.body;
  const pool = poolFor(policy, resolveAll);

  return new Promise((resolve) => {
    let settled = false;
    let request: http.ClientRequest;
    const finish = (outcome: Outcome, readToTheEnd = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      signal?.removeEventListener("abort", abort);
      // An answer read to its end leaves its connection to the pool; one cut short (not drained: 100 MB,
      // say), timed out or failed closes it.
      if (!readToTheEnd) request.destroy();
      resolve({ ...outcome, latencyMs: latencyMs() });
    };
    const deadline = setTimeout(
      () => finish({ kind: "failed", reason: "timeout", words: `no answer within ${timeoutMs / 1000} s` }),
      timeoutMs,
    );
    const abort = () => finish({ kind: "failed", reason: "aborted", words: abortedWords });
    signal?.addEventListener("abort", abort, { once: true });

    const send = (agent: http.Agent | false) => {
      request = (scheme === "https:" ? https : http).request({
        protocol: scheme,
        // Without URL.hostname's brackets, so Node sees an IPv6 literal as one (and skips `lookup` for it,
        // which is why checkDestinationUrl judged it).
        hostname: target.hostname.replace(/^\[(.*)\]$/, "$1"),
        port: target.port || undefined,
        path: `${target.pathname}${target.search}`,
        method: "POST",
        headers: { ...options.headers, "content-length": String(body.byteLength) },
        agent,
        lookup: pool.lookup,
      });

      request.on("error", (error: NodeJS.ErrnoException) => {
        // A pooled connection the server closed just as it was reused: once more, on a connection of its own.
        if (request.reusedSocket && error.code === "ECONNRESET" && !settled) return send(false);
        finish(
          error instanceof RefusedAddressError
            ? { kind: "failed", reason: "refused_address", words: error.message }
            : { kind: "failed", reason: "network", words: networkWords(error) },
        );
      });

      request.on("response", (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const answered = (truncated: boolean) => {
          const bytes = Buffer.concat(chunks).subarray(0, maxResponseBytes);
          // A cut may split a character: the decoder keeps back its first bytes instead of writing U+FFFD.
          const text = truncated ? new StringDecoder("utf8").write(bytes) : bytes.toString("utf8");
          finish({ kind: "answered", status: response.statusCode ?? 0, body: text, truncated }, !truncated);
        };
        response.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.byteLength;
          // Enough is read: the rest of the answer is never read, finish closes the connection.
          if (size > maxResponseBytes) answered(true);
        });
        response.on("end", () => answered(false));
        // After "end" these come too late to count; before it, the answer was cut off.
        const cut = () =>
          finish({ kind: "failed", reason: "network", words: "the connection closed in the middle of the answer" });
        response.on("error", cut);
        response.on("close", cut);
      });

      request.end(body);
    };
    send(pool[scheme]);
  });
}
