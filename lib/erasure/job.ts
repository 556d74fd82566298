import "server-only";

import { and, eq, isNull, sql } from "drizzle-orm";

import { recordAudit, type AuditActor } from "@/lib/audit/audit";
import type { AuditAction } from "@/lib/audit/schemas";
import { startBackgroundJob } from "@/lib/background-job";
import { getDb, rowsOf } from "@/lib/db";
import { endUserErasures } from "@/lib/db/erasure-schema";
import { auditLog } from "@/lib/db/schema";
import { errorMessage } from "@/lib/error-message";
import { isStopping } from "@/lib/lifecycle";
import { logger } from "@/lib/logger";
import { processSingleton } from "@/lib/process-singleton";

import { eraseEvents } from "./events";
import { eraseMentions } from "./mentions";
import { personalValues, userEventKeys } from "./targets";
import type { ErasureCounts, ErasureOutcome } from "./types";
import { hashUserId, userPseudonym } from "./user-hash";

/**
 * An erasure is a row of end_user_erasures and short transactions that each lock it (SKIP LOCKED: no step
 * twice): what names the user elsewhere, their events a chunk at a time, then the audit record as the row
 * goes. A restart leaves the row, which the start (lib/startup.ts) and a poll take up again.
 */

export const ERASURE_AUDIT_ACTION = "end_user.erased" satisfies AuditAction;

/**
 * Events per transaction: most users' whole history; a long one goes in steps that let webhooks be stored between
 * them.
 */
const CHUNK_EVENTS = 500;
/** How long a runner waits when another holds the erasure's row, before it looks again. */
const BUSY_RETRY_MS = 100;
/**
 * How often each instance looks for erasures that no runner finished (its own restart's, or another instance's
 * crash).
 */
const RESUME_POLL_MS = 60_000;

export const noCounts = (): ErasureCounts => ({
  events: 0,
  rejections: 0,
  deliveries: 0,
  attempts: 0,
  watches: 0,
  auditRecords: 0,
  replays: 0,
});

const addCounts = (a: ErasureCounts, b: Partial<ErasureCounts>): ErasureCounts =>
  Object.fromEntries(
    Object.entries(a).map(([kind, n]) => [kind, n + (b[kind as keyof ErasureCounts] ?? 0)]),
  ) as ErasureCounts;

/**
 * Starts an erasure of the user's data in the connection (null: in every connection), or joins the one under way;
 * its id.
 */
export async function startErasure(
  actor: AuditActor,
  userId: string,
  connection: { id: string; name: string } | null,
): Promise<string> {
  const db = await getDb();
  for (;;) {
    const [created] = await db
      .insert(endUserErasures)
      .values({
        userId,
        connectionId: connection?.id,
        connectionName: connection?.name,
        actorId: actor.id,
        actorEmail: actor.email,
        erased: noCounts(),
      })
      .onConflictDoNothing()
      .returning({ id: endUserErasures.id });
    if (created) return created.id;
    const scope = connection ? eq(endUserErasures.connectionId, connection.id) : isNull(endUserErasures.connectionId);
    const [running] = await db
      .select({ id: endUserErasures.id })
      .from(endUserErasures)
      .where(and(eq(endUserErasures.userId, userId), scope));
    // None: the one under way finished between the two statements, and this request starts afresh.
    if (running) return running.id;
  }
}

type ErasureRow = {
  id: string;
  user_id: string;
  connection_id: string | null;
  connection_name: string | null;
  actor_id: string | null;
  actor_email: string | null;
  mentions_erased: boolean;
  erased: ErasureCounts;
};

type Step = { kind: "more" } | { kind: "busy" } | { kind: "gone" } | { kind: "done"; outcome: ErasureOutcome };

/** One step of the erasure, in one transaction: what names the user, or a chunk of events, or the end. */
export async function eraseStep(id: string, chunkEvents = CHUNK_EVENTS): Promise<Step> {
  const db = await getDb();
  return db.transaction(async (tx): Promise<Step> => {
    const [job] = rowsOf<ErasureRow>(
      await tx.execute(sql`select * from end_user_erasures where id = ${id}::uuid for update skip locked`),
    );
    if (!job)
      return (await tx.select({ id: endUserErasures.id }).from(endUserErasures).where(eq(endUserErasures.id, id)))
        .length > 0
        ? { kind: "busy" }
        : { kind: "gone" };
    const scope = { connectionId: job.connection_id };
    const saveProgress = (erased: ErasureCounts) =>
      tx.update(endUserErasures).set({ erased, mentionsErased: true }).where(eq(endUserErasures.id, id));
    if (!job.mentions_erased) {
      await saveProgress(
        addCounts(job.erased, await eraseMentions(tx, await personalValues(tx, job.user_id, scope), scope)),
      );
      return { kind: "more" };
    }
    const keys = await userEventKeys(tx, job.user_id, scope, chunkEvents);
    if (keys.length > 0) {
      await saveProgress(addCounts(job.erased, await eraseEvents(tx, keys)));
      return { kind: "more" };
    }
    const { hash, keyId } = hashUserId(job.user_id);
    await tx.delete(endUserErasures).where(eq(endUserErasures.id, id));
    const actor: AuditActor =
      job.actor_id && job.actor_email
        ? { id: job.actor_id, email: job.actor_email }
        : { id: null, email: job.actor_email };
    await recordAudit(
      {
        actor,
        action: ERASURE_AUDIT_ACTION,
        outcome: "success",
        connection: job.connection_id ? { id: job.connection_id, name: job.connection_name ?? "" } : undefined,
        target: userPseudonym(hash),
        details: {
          erasureId: id,
          userIdHash: hash,
          hashKeyId: keyId,
          scope: job.connection_id ? "connection" : "all",
          erased: job.erased,
        },
      },
      tx,
    );
    return {
      kind: "done",
      outcome: { ok: true, erased: job.erased, userIdHash: hash, connectionId: job.connection_id },
    };
  });
}

/** The outcome of an erasure another runner finished, from its audit record. */
async function recordedOutcome(id: string): Promise<ErasureOutcome> {
  const db = await getDb();
  const [record] = await db
    .select({ connectionId: auditLog.connectionId, details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.action, ERASURE_AUDIT_ACTION), sql`${auditLog.details}->>'erasureId' = ${id}`));
  if (!record) throw new Error(`erasure ${id} is neither under way nor recorded`);
  const details = record.details as { userIdHash: string; erased: ErasureCounts };
  return { ok: true, erased: details.erased, userIdHash: details.userIdHash, connectionId: record.connectionId };
}

const giveWay = () => new Promise<void>((resolve) => setImmediate(resolve));
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The runs of this process: Next bundles the routes and actions that start them and the start-up code apart. */
const erasureRuns = () => processSingleton("erasure.runs", () => new Map<string, Promise<ErasureOutcome>>());

/**
 * Runs the erasure to its end and answers what it erased; a second call while it runs here shares the first's
 * answer. A stop ends it between steps (a throw): its row stays, and another instance or the next start finishes it.
 */
export function runErasure(id: string, chunkEvents?: number): Promise<ErasureOutcome> {
  const runs = erasureRuns();
  const running = runs.get(id);
  if (running) return running;
  const run = (async () => {
    for (;;) {
      if (isStopping())
        throw new Error("the console is stopping: the erasure is finished by another instance or the next start");
      const step = await eraseStep(id, chunkEvents);
      if (step.kind === "done") return step.outcome;
      if (step.kind === "gone") return recordedOutcome(id);
      await (step.kind === "busy" ? wait(BUSY_RETRY_MS) : giveWay());
    }
  })().finally(() => runs.delete(id));
  runs.set(id, run);
  return run;
}

/** Finishes every erasure still under way, oldest first; answers how many it finished. */
export async function resumeErasures(): Promise<number> {
  const db = await getDb();
  const waiting = await db.select({ id: endUserErasures.id }).from(endUserErasures).orderBy(endUserErasures.createdAt);
  for (const { id } of waiting) await runErasure(id);
  return waiting.length;
}

/**
 * At start-up: finishes the erasures a restart interrupted, then looks again every minute (once per process). A stop
 * waits for the erasures under way here, the routes' too, each ending at its next step.
 */
export function startErasureResumption(): void {
  startBackgroundJob("erasure.resumption", {
    everyMs: RESUME_POLL_MS,
    firstMs: 0,
    run: () =>
      resumeErasures().catch((error: unknown) => logger.error("erasure not finished", { error: errorMessage(error) })),
    underWay: () => Promise.allSettled(erasureRuns().values()),
  });
}
