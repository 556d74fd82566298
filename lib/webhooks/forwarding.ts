import "server-only";

import { asc, desc, sql } from "drizzle-orm";

import type { Database } from "@/lib/db";
import { forwardDeliveries, forwardDestinations } from "@/lib/db/forwarding-schema";

import type { DestinationForward, EventForwarding, ForwardOutcome } from "./types";

/**
 * Where the forwards of a page's events stand, read from the forwarding tables in one query per page (the
 * deliveries' (connection, event) index), never one per row: each destination's latest delivery of each event.
 */
type Keyed = { connectionId: string; eventId: string };

const NOT_FORWARDED: EventForwarding = { outcome: null, destinations: [] };
const key = (connectionId: string, eventId: string) => `${connectionId}\u0000${eventId}`;

/** A delivery in words: delivered, waiting for its first attempt, or failing (retried or given up). */
export function deliveryState(state: string, attempts: number): DestinationForward["state"] {
  if (state === "delivered") return "delivered";
  if (state === "cancelled") return "cancelled";
  return state === "failed" || attempts > 0 ? "failing" : "waiting";
}

/** The row's outcome: failing if any destination fails, else waiting if any waits, else delivered. */
export function overallOutcome(destinations: DestinationForward[]): ForwardOutcome | null {
  const states = new Set(destinations.map((d) => d.state));
  for (const outcome of ["failing", "waiting", "delivered"] as const) if (states.has(outcome)) return outcome;
  return null;
}

export async function forwardingOf<T extends Keyed>(
  db: Database,
  events: T[],
): Promise<Array<T & { forwarding: EventForwarding }>> {
  if (events.length === 0) return [];
  const d = forwardDeliveries;
  const pairs = sql.join(
    events.map((e) => sql`(${e.connectionId}::uuid, ${e.eventId})`),
    sql`, `,
  );
  const rows = await db
    .selectDistinctOn([d.connectionId, d.eventId, d.destinationId], {
      connectionId: d.connectionId,
      eventId: d.eventId,
      destinationName: forwardDestinations.name,
      state: d.state,
      attempts: d.attempts,
    })
    .from(d)
    .innerJoin(forwardDestinations, sql`${forwardDestinations.id} = ${d.destinationId}`)
    .where(sql`(${d.connectionId}, ${d.eventId}) in (${pairs})`)
    .orderBy(asc(d.connectionId), asc(d.eventId), asc(d.destinationId), desc(d.createdAt), desc(d.id));
  const byEvent = new Map<string, DestinationForward[]>();
  for (const row of rows) {
    const list = byEvent.get(key(row.connectionId, row.eventId)) ?? [];
    list.push({
      destinationName: row.destinationName,
      state: deliveryState(row.state, row.attempts),
      attempts: row.attempts,
    });
    byEvent.set(key(row.connectionId, row.eventId), list);
  }
  return events.map((e) => {
    const destinations = byEvent.get(key(e.connectionId, e.eventId));
    if (!destinations) return { ...e, forwarding: NOT_FORWARDED };
    destinations.sort((a, b) => a.destinationName.localeCompare(b.destinationName));
    return { ...e, forwarding: { outcome: overallOutcome(destinations), destinations } };
  });
}
