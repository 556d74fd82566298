import { sql } from "drizzle-orm";
import {
  bigserial,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

// Relative, not "@/": drizzle-kit reads this file without the app's path aliases.
import { connections, consoleUsers } from "./schema";

/**
 * Alerts (lib/alerts): what the evaluator found wrong with a connection, each alert's lifecycle, the
 * thresholds an admin set per connection, the notices queued for each change, and the evaluator's own
 * last run (which several instances share).
 */

export const alertKindEnum = pgEnum("alert_kind", [
  "silence",
  "bad_signatures",
  "unsigned_events",
  "late_events",
  "receiver_errors",
  "destination_failing",
]);
export const alertStateEnum = pgEnum("alert_state", ["open", "resolved"]);
export const noticeStateEnum = pgEnum("alert_notice_state", ["pending", "sent", "failed"]);

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

export const alerts = pgTable(
  "alerts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    connectionId: uuid("connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    kind: alertKindEnum("kind").notNull(),
    /** What within the connection it is about: a destination's id for destination_failing, else empty. */
    subject: text("subject").notNull().default(""),
    state: alertStateEnum("state").notNull().default("open"),
    openedAt: at("opened_at").notNull(),
    /** The last evaluation that found the condition true. */
    lastSeenAt: at("last_seen_at").notNull(),
    /** When the condition was first found false again: it resolves once it has stayed so for the hold time. */
    clearSince: at("clear_since"),
    resolvedAt: at("resolved_at"),
    acknowledgedAt: at("acknowledged_at"),
    acknowledgedBy: uuid("acknowledged_by").references(() => consoleUsers.id, { onDelete: "set null" }),
    /** No notices until then (the banner leaves it out too). */
    mutedUntil: at("muted_until"),
    /**
     * The numbers the last evaluation measured (lib/alerts/types.ts AlertMeasure): counts, thresholds, windows. Never
     * an event's body.
     */
    measure: jsonb("measure").notNull(),
    /** When the last opened or reminder notice was queued: a reminder follows at most every REMINDER_HOURS. */
    notifiedAt: at("notified_at"),
  },
  (t) => [
    // At most one open alert per condition: the evaluator updates it instead of adding another.
    uniqueIndex("alerts_open_idx")
      .on(t.connectionId, t.kind, t.subject)
      .where(sql`${t.state} = 'open'`),
    index("alerts_opened_idx").on(t.openedAt.desc(), t.id),
    index("alerts_connection_idx").on(t.connectionId, t.openedAt.desc()),
  ],
);

/** A connection's thresholds; a null column takes the default (lib/alerts/constants.ts, or the environment's). */
export const alertThresholds = pgTable("alert_thresholds", {
  connectionId: uuid("connection_id")
    .primaryKey()
    .references(() => connections.id, { onDelete: "cascade" }),
  silenceHours: integer("silence_hours"),
  badSignatures: integer("bad_signatures"),
  unsignedEvents: integer("unsigned_events"),
  lateEvents: integer("late_events"),
  receiverErrors: integer("receiver_errors"),
  destinationFailingMinutes: integer("destination_failing_minutes"),
  updatedBy: uuid("updated_by").references(() => consoleUsers.id, { onDelete: "set null" }),
  updatedAt: at("updated_at").notNull().defaultNow(),
});

/**
 * Console-wide webhook notice targets an admin adds on the Alerts page (beside CONSOLE_ALERT_WEBHOOK_URLS):
 * each with a Standard Webhooks secret of its own, sealed by lib/secrets.ts and bound to this row
 * (`alert_target_secret` and the row's id), which signs its notices.
 */
export const alertNoticeTargets = pgTable("alert_notice_targets", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull().unique("alert_notice_targets_name_key"),
  /** The URL as lib/outbound checked it when it was added (no fragment). */
  url: text("url").notNull(),
  secretCiphertext: text("secret_ciphertext").notNull(),
  createdBy: uuid("created_by").references(() => consoleUsers.id, { onDelete: "set null" }),
  createdAt: at("created_at").notNull().defaultNow(),
});

/**
 * The notices' outbox: one row per alert change and target, written in the evaluation's transaction.
 * `body` is the notice as sent (JSON), fixed when queued; `dueAt` is the next attempt, or while one is
 * under way the end of its lease.
 */
export const alertNotices = pgTable(
  "alert_notices",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    alertId: uuid("alert_id")
      .notNull()
      .references(() => alerts.id, { onDelete: "cascade" }),
    /** opened, resolved or reminder. */
    change: text("change").notNull(),
    /** webhook or email. */
    channel: text("channel").notNull(),
    /** The URL of a webhook target; the environment's recipients for email (never shown). */
    target: text("target").notNull(),
    /** A page target's notice (signed with its own secret; removed with it); null for the environment's targets. */
    targetId: uuid("target_id").references(() => alertNoticeTargets.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    state: noticeStateEnum("state").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    dueAt: at("due_at").notNull().defaultNow(),
    createdAt: at("created_at").notNull().defaultNow(),
    sentAt: at("sent_at"),
    /** The last attempt's outcome in words. */
    lastOutcome: text("last_outcome"),
  },
  (t) => [
    index("alert_notices_due_idx")
      .on(t.dueAt)
      .where(sql`${t.state} = 'pending'`),
    index("alert_notices_alert_idx").on(t.alertId),
    // Removing a page target removes its notices: found by this index, not a scan of the outbox.
    index("alert_notices_target_idx")
      .on(t.targetId)
      .where(sql`${t.targetId} is not null`),
  ],
);

/** One row (id 1): when the evaluator last ran, on any instance, and how long it took. */
export const alertEvaluations = pgTable("alert_evaluations", {
  id: integer("id").primaryKey(),
  startedAt: at("started_at").notNull(),
  finishedAt: at("finished_at"),
  durationMs: integer("duration_ms"),
});

export type Alert = typeof alerts.$inferSelect;
export type AlertKind = (typeof alertKindEnum.enumValues)[number];
export type AlertState = (typeof alertStateEnum.enumValues)[number];
export type AlertThresholdsRow = typeof alertThresholds.$inferSelect;
export type AlertNoticeTarget = typeof alertNoticeTargets.$inferSelect;
