import "server-only";

import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";

import { processSingleton } from "@/lib/process-singleton";

import { registerDatabaseGauges } from "./database-gauges";

/**
 * The console's Prometheus metrics (GET /api/metrics): counters and histograms of this process, and gauges read
 * from the database at scrape time (database-gauges.ts), the same on every instance. Labels are ids, never a
 * secret, an email, a phone number or a body; names come through the `_info` gauges only.
 */

/**
 * The receiver's answers: stored (a new event), duplicate (a redelivery counted), conflicting (a redelivery with
 * another body, answered 200), refused (4xx), failed (5xx).
 */
export type ReceiptOutcome = "stored" | "duplicate" | "conflicting" | "refused" | "failed";
/**
 * A bearer token's check: accepted, or why not (a guess matching no token, an address throttled, a token that no
 * longer works, or lacks the scope).
 */
export type TokenCheckOutcome =
  "accepted" | "unknown" | "throttled" | "revoked" | "expired" | "inactive" | "missing_scope";
/** An attempt's outcome: delivered, retrying (failed, to be tried again), failed (failed for good). */
export type ForwardOutcome = "delivered" | "retrying" | "failed";

/** From 1 ms to 10 s: a receipt answers in milliseconds, a slow database or a flood takes seconds. */
const RECEIVE_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Up to MAX_BATCH_ROWS of lib/webhooks/store.ts (100). */
const BATCH_BUCKETS = [1, 2, 5, 10, 20, 50, 100];
/** From 10 ms (a healthy destination at once) to a day (retries back off for hours). */
const LAG_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 14_400, 86_400];

function createMetrics() {
  const registry = new Registry();
  const registers = [registry];
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Counter<L>({ name, help, labelNames, registers });
  const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) =>
    new Histogram<L>({ name, help, labelNames, buckets, registers });
  const instruments = {
    received: counter(
      "tenant_console_webhooks_received_total",
      "Webhook requests this instance answered, by connection (empty: an unknown URL) and outcome (stored, duplicate, conflicting, refused, failed).",
      ["connection_id", "outcome"],
    ),
    refusals: counter(
      "tenant_console_webhook_refusals_total",
      "Webhook requests this instance refused or could not store, by connection (empty: an unknown URL) and reason (the log's rejection reasons), rate limit or not.",
      ["connection_id", "reason"],
    ),
    receiveSeconds: histogram(
      "tenant_console_webhook_receive_duration_seconds",
      "Time from a webhook request's arrival to its answer on this instance, by outcome (accepted, refused, failed).",
      ["outcome"],
      RECEIVE_BUCKETS,
    ),
    batchRows: histogram(
      "tenant_console_webhook_store_batch_rows",
      "Events per group-commit batch written by this instance (one transaction each).",
      [],
      BATCH_BUCKETS,
    ),
    forwards: counter(
      "tenant_console_forwards_total",
      "Forwarding attempts this instance recorded, by destination and outcome (delivered, retrying, failed: failed for good).",
      ["destination_id", "outcome"],
    ),
    leasesGivenBack: counter(
      "tenant_console_forward_leases_given_back_total",
      "Forwarding attempts this instance aborted while stopping (not recorded, not counted as attempts), whose deliveries it gave back to be sent at once, by destination.",
      ["destination_id"],
    ),
    lagSeconds: histogram(
      "tenant_console_stored_to_delivered_seconds",
      "Time from a delivery's queueing (for origin receipt: the event's storing) to its delivered answer, per destination and origin (receipt, resend, replay); recorded by the delivering instance.",
      ["destination_id", "origin"],
      LAG_BUCKETS,
    ),
    tokenChecks: counter(
      "tenant_console_api_token_checks_total",
      "Bearer tokens this instance checked on /api, by outcome: accepted, unknown (a guess), throttled (its address refused), revoked, expired, inactive (its user disabled or below its role), missing_scope.",
      ["outcome"],
    ),
  };
  registerDatabaseGauges(registry);
  return { registry, defaultsCollected: false, ...instruments };
}

type Metrics = ReturnType<typeof createMetrics>;

/**
 * One set per process: Next bundles the routes that count (the receiver), the startup code that counts (the
 * forwarding workers) and the metrics route apart, and a copy of its own would count into a registry nobody scrapes.
 */
const metrics = (): Metrics => processSingleton("metrics.registry", createMetrics);

/** Counts a webhook request's answer: stored, duplicate and conflicting are counted by storing, which knows. */
export function countReceipt(connectionId: string | null, outcome: ReceiptOutcome): void {
  metrics().received.inc({ connection_id: connectionId ?? "", outcome });
}

/** Times a webhook request from arrival to answer. */
export function observeReceipt(status: number, seconds: number): void {
  const outcome = status < 300 ? "accepted" : status < 500 ? "refused" : "failed";
  metrics().receiveSeconds.observe({ outcome }, seconds);
}

export function countRefusal(connectionId: string | null, reason: string): void {
  metrics().refusals.inc({ connection_id: connectionId ?? "", reason });
}

export function observeBatch(rows: number): void {
  metrics().batchRows.observe(rows);
}

export function countForward(destinationId: string, outcome: ForwardOutcome): void {
  metrics().forwards.inc({ destination_id: destinationId, outcome });
}

export function countLeaseGivenBack(destinationId: string): void {
  metrics().leasesGivenBack.inc({ destination_id: destinationId });
}

export function observeDelivered(destinationId: string, origin: string, seconds: number): void {
  metrics().lagSeconds.observe({ destination_id: destinationId, origin }, seconds);
}

export function countTokenCheck(outcome: TokenCheckOutcome): void {
  metrics().tokenChecks.inc({ outcome });
}

/** The exposition: the text and its content type (Prometheus text format 0.0.4). */
export async function scrapeMetrics(): Promise<{ body: string; contentType: string }> {
  const all = metrics();
  const { registry } = all;
  // Process metrics, heap, GC, and nodejs_eventloop_lag_seconds, under their standard names so stock
  // dashboards read them. From the first scrape on, not at the first count: their event-loop monitor and
  // GC observer run for good, and a process nobody scrapes (a CLI, a test) needs neither.
  if (!all.defaultsCollected) {
    collectDefaultMetrics({ register: registry });
    all.defaultsCollected = true;
  }
  return { body: await registry.metrics(), contentType: registry.contentType };
}
