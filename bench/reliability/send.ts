/**
 * The service's side of a webhook: signed deliveries, a ledger of every answer per event, a small
 * worker pool, and the comparison of the ledger with what the database holds afterwards.
 */
import crypto from "node:crypto";

import { expiredEvent } from "@/lib/testing/webhooks";
import { signatureHeader } from "@/lib/webhooks/signature";

export type Answer =
  | { kind: "status"; status: number; body: string; ms: number }
  /** The request may have reached the server, which died or dropped it: it may or may not have committed. */
  | { kind: "cut"; error: string; ms: number }
  /** The connection was refused: nothing reached the server. */
  | { kind: "refused"; error: string; ms: number };

/** POSTs one delivery of `raw`, signed now with `keys` (none: unsigned). */
export async function deliver(
  baseUrl: string,
  token: string,
  raw: string,
  keys: readonly string[],
  timeoutMs = 20_000,
): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (keys.length > 0) headers["x-signature-v2"] = signatureHeader(raw, Math.floor(Date.now() / 1000), keys);
  const started = performance.now();
  try {
    const response = await fetch(`${baseUrl}/api/webhooks/${token}`, {
      method: "POST",
      headers,
      body: raw,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await response.text();
    return { kind: "status", status: response.status, body, ms: performance.now() - started };
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    const message = `${(error as Error).message}${code ? ` (${code})` : ""}`;
    return { kind: code === "ECONNREFUSED" ? "refused" : "cut", error: message, ms: performance.now() - started };
  }
}

export type EventRecord = { eventId: string; raw: string; ok: number; cut: number; refused: number; other: number };

/** Every event the "service" sent, with how each delivery was answered. */
export class Ledger {
  readonly events = new Map<string, EventRecord>();
  readonly statusCounts: Record<string, number> = {};
  readonly badAnswers: string[] = [];

  /** A new authenticator.expired event; `data` overrides its fields. */
  newEvent(data: Record<string, unknown> = {}): EventRecord {
    const event = expiredEvent({ data: { userId: `usr_rel_${crypto.randomBytes(4).toString("hex")}`, ...data } });
    const record = { eventId: event.id, raw: JSON.stringify(event), ok: 0, cut: 0, refused: 0, other: 0 };
    this.events.set(record.eventId, record);
    return record;
  }

  record(event: EventRecord, answer: Answer): void {
    const key = answer.kind === "status" ? String(answer.status) : answer.kind;
    this.statusCounts[key] = (this.statusCounts[key] ?? 0) + 1;
    if (answer.kind === "cut") event.cut += 1;
    else if (answer.kind === "refused") event.refused += 1;
    else if (answer.status === 200) event.ok += 1;
    else event.other += 1;
    if (answer.kind !== "status") return;
    const shapeOk = answer.status === 200 ? isSuccessJson(answer.body) : isErrorJson(answer.body);
    if (!shapeOk) this.badAnswers.push(`${answer.status} answered ${JSON.stringify(answer.body.slice(0, 120))}`);
  }

  unacknowledged(): EventRecord[] {
    return [...this.events.values()].filter((e) => e.ok === 0);
  }

  get deliveries(): number {
    return Object.values(this.statusCounts).reduce((a, b) => a + b, 0);
  }
}

/** Runs `work` over `items` with `concurrency` workers; stops taking new items once `stopped()` is true. */
export async function runPool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
  stopped: () => boolean = () => false,
): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (!stopped() && next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return next;
}

export function shuffle<T>(items: T[], random: () => number = Math.random): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** Resends every unacknowledged event until it is answered 200 (at most `rounds` tries each). */
export async function resendUnacknowledged(
  ledger: Ledger,
  baseUrl: string,
  token: string,
  keys: readonly string[],
  rounds = 5,
): Promise<number> {
  let sent = 0;
  for (let round = 0; round < rounds; round++) {
    const pending = ledger.unacknowledged();
    if (pending.length === 0) break;
    if (round > 0) await new Promise((r) => setTimeout(r, 500));
    await runPool(pending, 10, async (event) => {
      ledger.record(event, await deliver(baseUrl, token, event.raw, keys));
      sent += 1;
    });
  }
  return sent;
}

export type StoredRow = { event_id: string; delivery_count: number };

export type Comparison = {
  rows: number;
  exact: number;
  /** Events whose count exceeds their 200s by cut-off requests that had committed (allowed). */
  committedCutOffs: number;
  problems: string[];
};

/**
 * Compares the rows stored for the ledger's connection with the ledger: one row per event answered
 * 200 (at least once); its delivery_count between its 200s and its 200s plus its cut-off requests
 * (exactly its 200s when `exact`); no row for an event never sent.
 */
export function compareWithLedger(ledger: Ledger, rows: StoredRow[], exact: boolean): Comparison {
  const problems: string[] = [];
  const seen = new Map<string, number>();
  for (const row of rows) seen.set(row.event_id, (seen.get(row.event_id) ?? 0) + 1);
  for (const [id, n] of seen) {
    if (n > 1) problems.push(`event ${id} stored ${n} times`);
    if (!ledger.events.has(id)) problems.push(`event ${id} stored but never sent`);
  }
  const byId = new Map(rows.map((r) => [r.event_id, Number(r.delivery_count)]));
  let exactCount = 0;
  let committedCutOffs = 0;
  for (const event of ledger.events.values()) {
    const count = byId.get(event.eventId);
    if (count === undefined) {
      if (event.ok > 0) problems.push(`event ${event.eventId} answered 200 ${event.ok}x but not stored`);
      continue;
    }
    const upper = exact ? event.ok : event.ok + event.cut;
    if (count < event.ok || count > upper) {
      problems.push(`event ${event.eventId}: delivery_count ${count}, 200 answers ${event.ok}, cut-off ${event.cut}`);
    } else if (count === event.ok) exactCount += 1;
    else committedCutOffs += 1;
  }
  return { rows: rows.length, exact: exactCount, committedCutOffs, problems };
}

export function isSuccessJson(body: string): boolean {
  try {
    return (JSON.parse(body) as { success?: unknown }).success === true;
  } catch {
    return false;
  }
}

/** True when the body is the receiver's error shape: JSON with string error and errorDescription. */
export function isErrorJson(body: string, error?: string): boolean {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; errorDescription?: unknown };
    return (
      typeof parsed.error === "string" &&
      typeof parsed.errorDescription === "string" &&
      (error === undefined || parsed.error === error)
    );
  } catch {
    return false;
  }
}
