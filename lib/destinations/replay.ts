import "server-only";

import { sql, type SQL } from "drizzle-orm";

import { recordAudit, type AuditActor } from "@/lib/audit/audit";
import type { ActionFailure } from "@/lib/call-action";
import { getDb, rowsOf, type Executor } from "@/lib/db";
import { forwardReplays, type ForwardDestination } from "@/lib/db/forwarding-schema";
import { webhookEvents } from "@/lib/db/schema";
import { parseEventFilters, replayCondition } from "@/lib/webhooks/webhooks";

import { findDestination, GONE } from "./destinations";
import { continueReplaysInBackground, destinationFilter, sendable, takesUnverified } from "./replay-queue";
import { replayInputSchema, type ReplayInput } from "./schemas";
import type { ReplayPreview, RunningReplay, StartReplayResult } from "./types";

/**
 * Replay from the log: the events the log's filters select (one connection's, no test event) that the destination
 * takes, queued in chunks (./replay-queue.ts) and sent by the workers like any delivery; one at a time per
 * destination, of at most MAX_REPLAY_EVENTS. docs/forwarding.md, "Attempts, resend and replay".
 */

export { continueReplays } from "./replay-queue";
export { cancelReplay, getReplayProgress } from "./replay-running";

/** The most events one replay may send: past this the log's filters must be narrowed. */
export const MAX_REPLAY_EVENTS = 1_000_000;

type StartReplayFailure = Extract<StartReplayResult, { ok: false }>;
type Selection = {
  ok: true;
  destination: ForwardDestination;
  connection: { id: string; name: string };
  condition: SQL;
  filters: string;
};

async function select(raw: ReplayInput): Promise<Selection | ActionFailure> {
  const parsed = replayInputSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "Check the request." };
  const { connectionId, destinationId, filters } = parsed.data;
  const parsedFilters = parseEventFilters(new URLSearchParams(filters));
  if (!parsedFilters.ok)
    return { ok: false, error: `The log's filters cannot be read: ${parsedFilters.errorDescription}.` };
  const found = await findDestination(connectionId, destinationId);
  if (!found) return GONE;
  return {
    ok: true,
    destination: found.row,
    connection: found.connection,
    condition: replayCondition(parsedFilters.filters, connectionId),
    filters,
  };
}

const count = (n: number) => n.toLocaleString("en");
const events = (n: number) => `${count(n)} event${n === 1 ? "" : "s"}`;

/**
 * The selection split three ways: sent, left out as unverified, left out by the destination's filters. Events
 * received after `until` are not counted.
 */
async function countSplit(selection: Selection, until: Date, db: Executor) {
  const { destination: d, condition } = selection;
  const [row] = rowsOf<{ count: number; unverified: number; filtered: number }>(
    await db.execute(sql`
      select count(*) filter (where ${sendable(d)})::int as count,
        count(*) filter (where ${destinationFilter(d)} and not (${sendable(d)}))::int as unverified,
        count(*) filter (where not ${destinationFilter(d)})::int as filtered
      from webhook_events where ${condition} and ${webhookEvents.firstReceivedAt} <= ${until.toISOString()}::timestamptz`),
  );
  return { count: row?.count ?? 0, skippedUnverified: row?.unverified ?? 0, skippedByFilters: row?.filtered ?? 0 };
}

/** Why events the console could not verify are not sent to this destination, in a sentence. */
function unverifiedWhy(d: ForwardDestination, skipped: number): string | null {
  if (skipped === 0 || takesUnverified(d)) return null;
  const which = `${events(skipped)} ${skipped === 1 ? "is" : "are"} left out: the console could not verify ${skipped === 1 ? "its" : "their"} signature when ${skipped === 1 ? "it" : "they"} arrived`;
  return d.signing === "service"
    ? `${which}, and ${d.name} signs as the service, which would tell it the service sent ${skipped === 1 ? "it" : "them"}.`
    : `${which}, and ${d.name} is not set to take events the console could not verify.`;
}

/** A replay to this destination that has not finished: still queuing, or with deliveries waiting. */
async function runningReplay(destinationId: string, db: Executor): Promise<RunningReplay | null> {
  const [row] = rowsOf<{ id: string; created_at: Date | string; total: number; queued: number; waiting: number }>(
    await db.execute(sql`
      select r.id, r.created_at, r.total, r.queued,
        (select count(*) from forward_deliveries d where d.destination_id = ${destinationId} and d.state = 'pending' and d.replay_id = r.id)::int as waiting
      from forward_replays r
      where r.destination_id = ${destinationId} and r.cancelled_at is null
        and (r.queued_at is null or exists (select 1 from forward_deliveries d where d.destination_id = ${destinationId} and d.state = 'pending' and d.replay_id = r.id))
      order by r.created_at desc limit 1`),
  );
  return row
    ? {
        replayId: row.id,
        startedAt: new Date(row.created_at).toISOString(),
        total: row.total,
        queued: row.queued,
        waiting: row.waiting,
      }
    : null;
}

function runningRefusal(name: string, running: RunningReplay): StartReplayFailure {
  const where =
    running.queued < running.total
      ? `${count(running.queued)} of ${count(running.total)} queued so far`
      : `${count(running.waiting)} of ${count(running.total)} still waiting`;
  return {
    ok: false,
    runningReplayId: running.replayId,
    error: `A replay to ${name} is still running (started ${running.startedAt}, ${where}). One replay runs at a time per destination: wait until it finishes, or cancel it (replay ${running.replayId}) and start this one.`,
  };
}

const tooLarge = (total: number, limit: number): ActionFailure => ({
  ok: false,
  error: `This replay would send ${events(total)}; at most ${count(limit)} at once: narrow the log's filters (a shorter time window, say).`,
});

/** What a replay of these filters would do: how many events it sends, and how many it leaves out and why. */
export async function countReplay(raw: ReplayInput): Promise<({ ok: true } & ReplayPreview) | ActionFailure> {
  const selection = await select(raw);
  if (!selection.ok) return selection;
  const db = await getDb();
  const split = await countSplit(selection, new Date(), db);
  const d = selection.destination;
  return {
    ok: true,
    ...split,
    skippedUnverifiedWhy: unverifiedWhy(d, split.skippedUnverified),
    maxEvents: MAX_REPLAY_EVENTS,
    maxPerSecond: d.maxPerSecond,
    running: await runningReplay(d.id, db),
  };
}

/**
 * Starts a replay: counts what it will send, refuses one past `maxEvents` or while another to the destination runs
 * (checked under a lock on the destination's row, across instances), records it with its audit record, and queues
 * its events in the background in chunks of `chunkSize` events, else sized to a short time each.
 */
export async function startReplay(
  actor: AuditActor,
  raw: ReplayInput,
  { maxEvents = MAX_REPLAY_EVENTS, chunkSize }: { maxEvents?: number; chunkSize?: number } = {},
): Promise<StartReplayResult> {
  const selection = await select(raw);
  if (!selection.ok) return selection;
  const { destination, connection, filters } = selection;
  if (!destination.enabled) return { ok: false, error: `${destination.name} is off: turn it on to replay to it.` };
  const db = await getDb();
  // Receipt times are the receiving instance's clock, stored to the millisecond: the bound is too.
  const until = new Date();
  const running = await runningReplay(destination.id, db);
  if (running) return runningRefusal(destination.name, running);
  // Counted before the transaction: a large count is a long read, and the lock below would hold the
  // destination's row (which the workers update) through it.
  const split = await countSplit(selection, until, db);
  if (split.count > maxEvents) return tooLarge(split.count, maxEvents);
  const replayId = crypto.randomUUID();
  const started = await db.transaction(async (tx): Promise<StartReplayResult> => {
    await tx.execute(sql`select id from forward_destinations where id = ${destination.id} for update`);
    const other = await runningReplay(destination.id, tx);
    if (other) return runningRefusal(destination.name, other);
    await tx.insert(forwardReplays).values({
      id: replayId,
      destinationId: destination.id,
      filters,
      total: split.count,
      createdBy: actor.id,
      createdAt: until,
    });
    await recordAudit(
      {
        actor,
        action: "destination.replay_started",
        outcome: "success",
        connection,
        target: destination.name,
        details: {
          replayId,
          events: split.count,
          skippedUnverified: split.skippedUnverified,
          skippedByFilters: split.skippedByFilters,
          filters,
        },
      },
      tx,
    );
    const skippedUnverifiedWhy = unverifiedWhy(destination, split.skippedUnverified);
    return {
      ok: true,
      replayId,
      total: split.count,
      skippedUnverified: split.skippedUnverified,
      skippedUnverifiedWhy,
      skippedByFilters: split.skippedByFilters,
    };
  });
  if (started.ok) void continueReplaysInBackground({ chunkSize });
  return started;
}
