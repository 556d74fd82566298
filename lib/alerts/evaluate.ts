import "server-only";

import { eq, sql } from "drizzle-orm";

import { getDb, rowsOf, type Executor } from "@/lib/db";
import { alertEvaluations, alerts, type Alert } from "@/lib/db/alerts-schema";
import { connections } from "@/lib/db/schema";
import { env } from "@/lib/env";

import { firingConditions, measureConnections, measureDestinations, type Firing } from "./conditions";
import { REMINDER_HOURS } from "./constants";
import { noticeQueue, type NoticeConnection } from "./notices";

/**
 * One evaluation: measures every condition (./conditions.ts) and moves each alert along its lifecycle (opened,
 * updated, reminded, clear, resolved after CONSOLE_ALERT_HOLD_SECONDS), in one transaction holding an advisory lock
 * so one instance evaluates at a time. docs/alerts.md, "Lifecycle" and "Evaluation".
 */

/** pg_try_advisory_xact_lock's key: "alerts" in ASCII, apart from any other lock of the console. */
const EVALUATION_LOCK = 0x616c65727473;

export type EvaluationOutcome =
  | { ran: false; reason: "busy" | "recent" }
  | {
      ran: true;
      opened: number;
      updated: number;
      cleared: number;
      resolved: number;
      notices: number;
      durationMs: number;
    };

type Options = {
  /** The instant evaluated at (tests move it; the schedule passes the real time). */
  now?: Date;
  /** Skip when any instance started an evaluation less than this long ago (the schedule: most of its period). */
  minGapMs?: number;
};

const REMINDER_MS = REMINDER_HOURS * 3_600_000;
const keyOf = (a: { connectionId: string; kind: string; subject: string }) =>
  `${a.connectionId}|${a.kind}|${a.subject}`;

export async function evaluateAlerts({ now = new Date(), minGapMs = 0 }: Options = {}): Promise<EvaluationOutcome> {
  const started = performance.now();
  const db = await getDb();
  return db.transaction(async (tx): Promise<EvaluationOutcome> => {
    const [lock] = rowsOf<{ locked: boolean }>(
      await tx.execute(sql`select pg_try_advisory_xact_lock(${EVALUATION_LOCK}) as locked`),
    );
    if (!lock?.locked) return { ran: false, reason: "busy" };
    // The measuring statement's estimated cost (a subquery per connection and partition) crosses
    // PostgreSQL's JIT threshold, and compiling it took 0.5 s of a 0.52 s evaluation at 1M events: the
    // statement itself reads a few index entries per connection, so it runs uncompiled.
    await tx.execute(sql`set local jit = off`);
    const [last] = await tx
      .select({ startedAt: alertEvaluations.startedAt })
      .from(alertEvaluations)
      .where(eq(alertEvaluations.id, 1));
    if (last && minGapMs > 0 && now.getTime() - last.startedAt.getTime() < minGapMs)
      return { ran: false, reason: "recent" };

    const firing = firingConditions(await measureConnections(tx, now), await measureDestinations(tx, now), now);
    const counts = await applyLifecycle(tx, firing, now);
    const durationMs = Math.round(performance.now() - started);
    const row = { startedAt: now, finishedAt: now, durationMs };
    await tx
      .insert(alertEvaluations)
      .values({ id: 1, ...row })
      .onConflictDoUpdate({ target: alertEvaluations.id, set: row });
    return { ran: true, ...counts, durationMs };
  });
}

async function applyLifecycle(tx: Executor, firing: Firing[], now: Date) {
  const counts = { opened: 0, updated: 0, cleared: 0, resolved: 0, notices: 0 };
  const open = new Map((await tx.select().from(alerts).where(eq(alerts.state, "open"))).map((a) => [keyOf(a), a]));
  const names = new Map(
    (await tx.select({ id: connections.id, name: connections.name, region: connections.region }).from(connections)).map(
      (c) => [c.id, c as NoticeConnection],
    ),
  );
  const queue = noticeQueue(tx, now);
  const notify = async (change: "opened" | "resolved" | "reminder", alert: Alert) => {
    const connection = names.get(alert.connectionId);
    if (connection) counts.notices += await queue(change, alert, connection);
  };

  for (const f of firing) {
    const existing = open.get(keyOf(f));
    open.delete(keyOf(f));
    if (!existing) {
      const [alert] = await tx
        .insert(alerts)
        .values({
          connectionId: f.connectionId,
          kind: f.kind,
          subject: f.subject,
          openedAt: now,
          lastSeenAt: now,
          measure: f.measure,
          notifiedAt: now,
        })
        .returning();
      counts.opened += 1;
      await notify("opened", alert!);
      continue;
    }
    const quiet = existing.acknowledgedAt !== null || (existing.mutedUntil !== null && existing.mutedUntil > now);
    const remind =
      !quiet && (existing.notifiedAt === null || now.getTime() - existing.notifiedAt.getTime() >= REMINDER_MS);
    const [alert] = await tx
      .update(alerts)
      .set({ lastSeenAt: now, measure: f.measure, clearSince: null, ...(remind ? { notifiedAt: now } : {}) })
      .where(eq(alerts.id, existing.id))
      .returning();
    counts.updated += 1;
    if (remind) await notify("reminder", alert!);
  }

  for (const alert of open.values()) {
    if (alert.clearSince === null) {
      await tx.update(alerts).set({ clearSince: now }).where(eq(alerts.id, alert.id));
      counts.cleared += 1;
    } else if (now.getTime() - alert.clearSince.getTime() >= env().CONSOLE_ALERT_HOLD_SECONDS * 1_000) {
      const [resolved] = await tx
        .update(alerts)
        .set({ state: "resolved", resolvedAt: now })
        .where(eq(alerts.id, alert.id))
        .returning();
      counts.resolved += 1;
      await notify("resolved", resolved!);
    }
  }
  return counts;
}
