/**
 * What the forward part's runs share (bench/forward.ts, bench/forward-isolation.ts): a fresh database
 * whose connections forward to the bench's handler, destinations added as an admin would, and the
 * stored → delivered latency read from the database.
 */
import { sql } from "drizzle-orm";

import { createDestination } from "@/lib/destinations/destinations";

import { WEBHOOK_URLS, webhookSenders } from "../ingest";
import { rowsOf, withDatabase, type Scenario } from "../reliability/server";
import { benchScenario } from "./console";
import type { ForwardReceiver } from "./forward-receiver";
import { round } from "./part";

export const FORWARD_ENV = { CONSOLE_FORWARD_ALLOWED_HOSTS: "127.0.0.1" };
export const ACTOR = { id: null, email: "bench" };
const LOCAL = { allowedHosts: ["127.0.0.1"] };

/** Which of the connections forward to the handler: none, the first, or every one. */
export type Forwarding = "none" | "one" | "every";

/** A fresh database with WEBHOOK_URLS connections, those `forwarding` says forwarding to the handler. */
export async function forwardingScenario(name: string, receiver: ForwardReceiver, forwarding: Forwarding = "every") {
  const scenario = await benchScenario(`forward-${name}`);
  const senders = await webhookSenders(scenario, WEBHOOK_URLS);
  receiver.acceptKeys(...senders.map((s) => s.key));
  const forwarded = { none: [], one: senders.slice(0, 1), every: senders }[forwarding];
  const destinationIds =
    forwarded.length > 0
      ? await withDatabase(scenario, () =>
          addDestinations(
            receiver.url,
            forwarded.map((s) => s.connectionId),
          ),
        )
      : [];
  return { scenario, senders, destinationIds };
}

/** A destination "as the service" to `url` on each connection; `maxPerSecond` caps each. */
export async function addDestinations(
  url: string,
  connectionIds: string[],
  { name = "Bench handler", maxPerSecond }: { name?: string; maxPerSecond?: number } = {},
): Promise<string[]> {
  const ids = [];
  for (const connectionId of connectionIds) {
    const created = await createDestination(
      ACTOR,
      { connectionId, name, url, signing: "service", eventTypes: [], verificationMethods: [] },
      LOCAL,
    );
    if (!created.ok) throw new Error(created.error);
    ids.push(created.id);
  }
  if (maxPerSecond !== undefined) {
    const { getDb } = await import("@/lib/db");
    const db = await getDb();
    await db.execute(
      sql`update forward_destinations set max_per_second = ${maxPerSecond} where id in ${sql.raw(`('${ids.join("','")}')`)}`,
    );
  }
  return ids;
}

export const count = async (scenario: Scenario, query: ReturnType<typeof sql>) =>
  withDatabase(scenario, async (db) => Number(rowsOf<{ n: string | number }>(await db.execute(query))[0]!.n));

/**
 * Milliseconds from stored to delivered, over the delivered forwards (of one destination when given; the database's
 * clock at both ends).
 */
export async function deliveryLatency(scenario: Scenario, destinationId?: string) {
  return withDatabase(scenario, async (db) => {
    const [row] = rowsOf<{ p50: number; p99: number; max: number; delivered: string; waiting: string; failed: string }>(
      await db.execute(sql`
        select percentile_cont(0.5) within group (order by ms) as p50, percentile_cont(0.99) within group (order by ms) as p99, max(ms) as max,
          count(*) filter (where state = 'delivered') as delivered, count(*) filter (where state = 'pending') as waiting, count(*) filter (where state = 'failed') as failed
        from (select state, extract(epoch from (finished_at - created_at)) * 1000 as ms from forward_deliveries
          where ${destinationId ? sql`destination_id = ${destinationId}` : sql`true`}) d`),
    );
    return {
      p50: round(Number(row!.p50), 0),
      p99: round(Number(row!.p99), 0),
      max: round(Number(row!.max), 0),
      delivered: Number(row!.delivered),
      waiting: Number(row!.waiting),
      failed: Number(row!.failed),
    };
  });
}
