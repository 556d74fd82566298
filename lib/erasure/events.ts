import "server-only";

import { sql } from "drizzle-orm";

import { rowsOf, type Executor, type Transaction } from "@/lib/db";

import { keysTable, ofTarget, type EventKey } from "./targets";
import type { ConnectionErasureCounts, ErasureCounts } from "./types";

/** An event's own rows: the event, the refusals of deliveries of it, its forwards' deliveries and their attempts. */
export type EventCounts = Pick<ErasureCounts, "events" | "rejections" | "deliveries" | "attempts">;

/** Per connection, by name: the events of `keys`, and the refusals, deliveries and attempts that hang on them. */
export async function countPerConnection(db: Executor, keys: readonly EventKey[]): Promise<ConnectionErasureCounts[]> {
  if (keys.length === 0) return [];
  const rows = rowsOf<{ id: string; name: string } & EventCounts>(
    await db.execute(sql`
      with t as (${keysTable(keys)}),
      events as (select connection_id, count(*)::int as n from t group by connection_id),
      deliveries as (
        select d.connection_id, count(*)::int as n, sum((select count(*) from forward_attempts a where a.delivery_id = d.id))::int as attempts
        from forward_deliveries d join t on ${ofTarget("d")} group by d.connection_id
      ),
      rejections as (select r.connection_id, count(*)::int as n from webhook_rejections r join t on ${ofTarget("r")} group by r.connection_id)
      select c.id, c.name, e.n as events, coalesce(r.n, 0) as rejections, coalesce(d.n, 0) as deliveries, coalesce(d.attempts, 0) as attempts
      from events e join connections c on c.id = e.connection_id
        left join deliveries d on d.connection_id = e.connection_id left join rejections r on r.connection_id = e.connection_id
      order by lower(c.name)`),
  );
  return rows.map(({ id, name, ...counts }) => ({ connectionId: id, connectionName: name, ...counts }));
}

/**
 * Deletes the events of `keys` in `tx`, with the refusals of their deliveries and their forwards'
 * deliveries (queued or done; their attempts go with them, by the foreign key). A delivery a worker is
 * sending meanwhile is not recorded when it ends (lib/destinations/outbox.ts skips what is gone).
 */
export async function eraseEvents(tx: Transaction, keys: readonly EventKey[]): Promise<EventCounts> {
  const [counts] = rowsOf<EventCounts>(
    await tx.execute(sql`
      with t as (${keysTable(keys)}),
      attempts as (select count(*)::int as n from forward_attempts a join forward_deliveries d on d.id = a.delivery_id join t on ${ofTarget("d")}),
      deliveries as (delete from forward_deliveries d using t where ${ofTarget("d")} returning 1),
      rejections as (delete from webhook_rejections r using t where ${ofTarget("r")} returning 1),
      events as (delete from webhook_events w using t where ${ofTarget("w")} returning 1)
      select (select count(*) from events)::int as events, (select count(*) from rejections)::int as rejections,
        (select count(*) from deliveries)::int as deliveries, (select n from attempts) as attempts`),
  );
  return counts!;
}
