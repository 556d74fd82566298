import "server-only";

import { and, count, desc, eq, gt, isNull, lte, or, sql, type SQL } from "drizzle-orm";

import { recordAudit, type AuditActor } from "@/lib/audit/audit";
import type { AuditAction } from "@/lib/audit/schemas";
import type { Role } from "@/lib/auth/roles";
import { userShownName } from "@/lib/auth/users";
import type { ActionResult } from "@/lib/call-action";
import { getConnection } from "@/lib/connections/connections";
import { getDb } from "@/lib/db";
import { alertEvaluations, alerts, alertThresholds, type Alert } from "@/lib/db/alerts-schema";
import { connections, consoleUsers } from "@/lib/db/schema";
import { outcomeForRole } from "@/lib/outbound/shown-to-role";

import { alertHref, alertSummary } from "./display";
import { alertIdSchema, ALL, muteAlertSchema, thresholdsSchema, type AlertFilters } from "./schemas";
import { thresholdsFor } from "./thresholds";
import type { AlertMeasure, AlertPage, AlertSummary, ConnectionThresholds, ThresholdsResult } from "./types";

/**
 * Alerts: what the evaluator (./evaluate.ts) found wrong with a connection, for the Alerts page, the banner, the
 * overview and GET /api/alerts, and what people do with them, each change audited. Everyone signed in reads them;
 * admins change them, and alone see and manage the notice targets (./notice-targets.ts).
 */

export { addNoticeTarget, listNoticeTargets, removeNoticeTarget, sendTestNotice } from "./notice-targets";
export { startAlerts } from "./schedule";
export { thresholdDefaults } from "./thresholds";

const notices = sql<string>`(select json_build_object(
    'sent', count(*) filter (where n.state = 'sent'),
    'pending', count(*) filter (where n.state = 'pending'),
    'failed', count(*) filter (where n.state = 'failed'),
    'problem', (select m.last_outcome from alert_notices m where m.alert_id = ${alerts.id} and m.state <> 'sent' and m.attempts > 0 order by m.id desc limit 1)
  ) from alert_notices n where n.alert_id = ${alerts.id})`;

function summarize(
  row: Alert & { connectionName: string; region: string; acknowledgedByName: string | null; notices: unknown },
): AlertSummary {
  const measure = row.measure as AlertMeasure;
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  const n = (typeof row.notices === "string" ? JSON.parse(row.notices) : row.notices) as {
    sent: number;
    pending: number;
    failed: number;
    problem: string | null;
  };
  const openedAt = row.openedAt.toISOString();
  return {
    id: row.id,
    kind: row.kind,
    state: row.state,
    connection: { id: row.connectionId, name: row.connectionName, region: row.region },
    subject: row.subject || null,
    // Its numbers are from when it was last seen: once the condition has cleared, the line says so.
    summary:
      row.state === "open" && row.clearSince === null
        ? alertSummary(row.kind, measure)
        : `When last seen: ${alertSummary(row.kind, measure, { asOfLastSeen: true })}`,
    measure,
    openedAt,
    lastSeenAt: row.lastSeenAt.toISOString(),
    clearSince: iso(row.clearSince),
    resolvedAt: iso(row.resolvedAt),
    acknowledgedAt: iso(row.acknowledgedAt),
    acknowledgedBy: row.acknowledgedByName,
    mutedUntil: iso(row.mutedUntil),
    href: alertHref({ kind: row.kind, connectionId: row.connectionId, openedAt, resolvedAt: iso(row.resolvedAt) }),
    notices: { sent: Number(n.sent), pending: Number(n.pending), failed: Number(n.failed), problem: n.problem },
  };
}

async function selectAlerts(where: SQL | undefined, limit: number): Promise<AlertSummary[]> {
  const db = await getDb();
  const rows = await db
    .select({
      alert: alerts,
      connectionName: connections.name,
      region: connections.region,
      acknowledgedByName: userShownName,
      notices,
    })
    .from(alerts)
    .innerJoin(connections, eq(connections.id, alerts.connectionId))
    .leftJoin(consoleUsers, eq(consoleUsers.id, alerts.acknowledgedBy))
    .where(where)
    // Open ones first, then newest first.
    .orderBy(sql`${alerts.state} = 'open' desc`, desc(alerts.openedAt), alerts.id)
    .limit(limit);
  return rows.map(({ alert, ...rest }) => summarize({ ...alert, ...rest }));
}

const notMuted = (now: Date) => or(isNull(alerts.mutedUntil), lte(alerts.mutedUntil, now));

function filterCondition(filters: AlertFilters, now = new Date()): SQL | undefined {
  return and(
    filters.connectionId === ALL ? undefined : eq(alerts.connectionId, filters.connectionId),
    filters.kind === ALL ? undefined : eq(alerts.kind, filters.kind),
    filters.state === ALL ? undefined : eq(alerts.state, filters.state),
    filters.muted === ALL ? undefined : filters.muted === "no" ? notMuted(now) : gt(alerts.mutedUntil, now),
  );
}

/**
 * The alerts the filters select, open ones first, newest first; with how many there are and when the
 * evaluator last ran. Support (the default: the smaller view) sees a notice's refused address by its range only.
 */
export async function listAlerts(filters: AlertFilters, role: Role = "support"): Promise<AlertPage> {
  const db = await getDb();
  const where = filterCondition(filters);
  const [items, [total], [evaluation]] = await Promise.all([
    selectAlerts(where, filters.limit),
    db.select({ n: count() }).from(alerts).where(where),
    db.select({ finishedAt: alertEvaluations.finishedAt }).from(alertEvaluations).where(eq(alertEvaluations.id, 1)),
  ]);
  const shown = items.map((a) =>
    a.notices.problem
      ? { ...a, notices: { ...a.notices, problem: outcomeForRole(a.notices.problem, role, "the target's host") } }
      : a,
  );
  return { alerts: shown, total: total?.n ?? 0, lastEvaluatedAt: evaluation?.finishedAt?.toISOString() ?? null };
}

/** The open alerts that are not muted at `now` (the banner, the overview's cards), newest first. */
export async function listOpenAlerts(now = new Date()): Promise<AlertSummary[]> {
  return selectAlerts(and(eq(alerts.state, "open"), notMuted(now)), 200);
}

const NOT_OPEN: ActionResult = {
  ok: false,
  error: "This alert is no longer open: it resolved, or its connection was deleted.",
};

/**
 * Changes one open alert and records who did it, in one transaction: acknowledge, mute and unmute. An
 * alert no longer open (resolved, or its connection deleted) is said so; one `alreadyDone` is left as it is.
 */
async function changeOpenAlert(
  actor: AuditActor,
  alertId: string,
  change: {
    action: AuditAction;
    set: Partial<Alert>;
    details?: Record<string, unknown>;
    alreadyDone?: (alert: Alert) => boolean;
  },
): Promise<ActionResult> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(alerts)
    .where(and(eq(alerts.id, alertId), eq(alerts.state, "open")))
    .limit(1);
  const connection = row ? await getConnection(row.connectionId) : undefined;
  if (!row || !connection) return NOT_OPEN;
  if (change.alreadyDone?.(row)) return { ok: true };
  await db.transaction(async (tx) => {
    await tx.update(alerts).set(change.set).where(eq(alerts.id, row.id));
    await recordAudit(
      {
        actor,
        action: change.action,
        outcome: "success",
        connection,
        target: row.kind,
        details: { alertId: row.id, ...change.details },
      },
      tx,
    );
  });
  return { ok: true };
}

/**
 * Someone is on it: no reminders while it stays open (it still resolves, with a notice). The first to acknowledge is
 * kept.
 */
export async function acknowledgeAlert(actor: AuditActor, raw: unknown): Promise<ActionResult> {
  const parsed = alertIdSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "Check the request." };
  return changeOpenAlert(actor, parsed.data.alertId, {
    action: "alert.acknowledged",
    set: { acknowledgedAt: new Date(), acknowledgedBy: actor.id },
    alreadyDone: (alert) => alert.acknowledgedAt !== null,
  });
}

/** No reminders (and no banner) for one of MUTE_HOURS. */
export async function muteAlert(actor: AuditActor, raw: unknown): Promise<ActionResult> {
  const parsed = muteAlertSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "Check the request." };
  const mutedUntil = new Date(Date.now() + parsed.data.hours * 3_600_000);
  return changeOpenAlert(actor, parsed.data.alertId, {
    action: "alert.muted",
    set: { mutedUntil },
    details: { mutedUntil },
  });
}

/** Lifts a mute before it ends. */
export async function unmuteAlert(actor: AuditActor, raw: unknown): Promise<ActionResult> {
  const parsed = alertIdSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "Check the request." };
  return changeOpenAlert(actor, parsed.data.alertId, { action: "alert.unmuted", set: { mutedUntil: null } });
}

/** A connection's thresholds: those in force, and which were set. */
export async function getThresholds(connectionId: string): Promise<ConnectionThresholds> {
  const db = await getDb();
  const [row] = await db.select().from(alertThresholds).where(eq(alertThresholds.connectionId, connectionId));
  return thresholdsFor(connectionId, row);
}

/** Sets a connection's thresholds (empty: the default); one out of range is named and nothing is saved. */
export async function setThresholds(actor: AuditActor, raw: unknown): Promise<ThresholdsResult> {
  const parsed = thresholdsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      error: issue?.message ?? "Check the form.",
      field: typeof issue?.path[0] === "string" ? issue.path[0] : undefined,
    };
  }
  const { connectionId, ...values } = parsed.data;
  const connection = await getConnection(connectionId);
  if (!connection) return { ok: false, error: "This connection no longer exists." };
  const before = await getThresholds(connectionId);
  const db = await getDb();
  await db.transaction(async (tx) => {
    const row = { ...values, updatedBy: actor.id, updatedAt: new Date() };
    await tx
      .insert(alertThresholds)
      .values({ connectionId, ...row })
      .onConflictDoUpdate({ target: alertThresholds.connectionId, set: row });
    await recordAudit(
      {
        actor,
        action: "alert.thresholds_changed",
        outcome: "success",
        connection,
        target: connection.name,
        details: { before: before.set, after: values },
      },
      tx,
    );
  });
  return { ok: true };
}
