import "server-only";

import { sql } from "drizzle-orm";

import { auditRedactions, redactAuditRecords } from "@/lib/audit/audit";
import { rowsOf, type Executor, type Transaction } from "@/lib/db";
import { containsAny } from "@/lib/db/like";

import { inScope, redactor, spellings, stringsIn, type Scope } from "./targets";
import type { ErasureCounts } from "./types";

/**
 * What names an end user outside their events: audit records (a lookup of their authenticators, a
 * replay of their events), watch list entries whose data point names them, and replays whose filters do.
 * A text names them where it holds their id, email or phone number whole, not inside a longer id.
 */

export type MentionCounts = Pick<ErasureCounts, "watches" | "auditRecords" | "replays">;

/** What to look for (every spelling, for the database to pick candidates), and what to replace it with. */
function matching(values: readonly string[]) {
  const redact = redactor(values);
  return { forms: [...new Set(values.flatMap(spellings))], redact, names: (text: string) => redact(text) !== text };
}

type Matching = ReturnType<typeof matching>;

async function watchesNaming(db: Executor, { forms, names }: Matching, scope: Scope) {
  const candidates = rowsOf<{ connection_id: string; data_point_id: string; snapshot: unknown }>(
    await db.execute(sql`
      select connection_id, data_point_id, snapshot from data_point_watches
      where ${inScope(sql`connection_id`, scope)} and (${containsAny(sql`data_point_id`, forms)} or ${containsAny(sql`coalesce(snapshot::text, '')`, forms)})`),
  );
  return candidates.filter((watch) => names(watch.data_point_id) || stringsIn(watch.snapshot).some(names));
}

async function replaysNaming(db: Executor, { forms, names }: Matching, scope: Scope) {
  const candidates = rowsOf<{ id: string; filters: string }>(
    await db.execute(sql`
      select r.id, r.filters from forward_replays r join forward_destinations d on d.id = r.destination_id
      where ${inScope(sql`d.connection_id`, scope)} and ${containsAny(sql`r.filters`, forms)}`),
  );
  // A filter's value is read as the log reads it (decoded), so any encoding of it is found.
  return candidates.filter((replay) => [...new URLSearchParams(replay.filters).values()].some(names));
}

export async function countMentions(db: Executor, values: readonly string[], scope: Scope): Promise<MentionCounts> {
  const match = matching(values);
  return {
    watches: (await watchesNaming(db, match, scope)).length,
    auditRecords: (
      await auditRedactions(db, { values: match.forms, connectionId: scope.connectionId, redact: match.redact })
    ).length,
    replays: (await replaysNaming(db, match, scope)).length,
  };
}

/**
 * Erases them in `tx`: the watch list entries go; audit records and replays stay (what happened, and a
 * replay's progress) with the user's id, email and phone number in them replaced by "[erased]".
 */
export async function eraseMentions(tx: Transaction, values: readonly string[], scope: Scope): Promise<MentionCounts> {
  const match = matching(values);
  const watches = await watchesNaming(tx, match, scope);
  for (const watch of watches) {
    await tx.execute(
      sql`delete from data_point_watches where connection_id = ${watch.connection_id}::uuid and data_point_id = ${watch.data_point_id}`,
    );
  }
  const replays = await replaysNaming(tx, match, scope);
  for (const replay of replays) {
    const filters = new URLSearchParams(
      [...new URLSearchParams(replay.filters)].map(([name, value]) => [name, match.redact(value)]),
    ).toString();
    await tx.execute(sql`update forward_replays set filters = ${filters} where id = ${replay.id}::uuid`);
  }
  const auditRecords = await redactAuditRecords(tx, {
    values: match.forms,
    connectionId: scope.connectionId,
    redact: match.redact,
  });
  return { watches: watches.length, auditRecords, replays: replays.length };
}
