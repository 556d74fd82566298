import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
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
 * Forwarding (lib/destinations): where a connection's received events go next, the outbox of what is
 * still to send, and every attempt. Apart from schema.ts, which keeps the receiving side.
 */

/**
 * `service`: re-signed in X-Signature-V2 with the connection's server keys; `standard_webhooks`: with the
 * destination's own secret.
 */
export const signingModeEnum = pgEnum("forward_signing", ["service", "standard_webhooks"]);
export const deliveryStateEnum = pgEnum("forward_delivery_state", ["pending", "delivered", "failed", "cancelled"]);

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

export const forwardDestinations = pgTable(
  "forward_destinations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    connectionId: uuid("connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    url: text("url").notNull(),
    /** Off: nothing is queued for it or sent to it. */
    enabled: boolean("enabled").notNull().default(true),
    /** Set when every attempt failed for 24 h: events still queue, nothing is sent until it is resumed. */
    pausedAt: at("paused_at"),
    /** The first of the failed attempts since the last delivered one (null: the last one was delivered). */
    failingSince: at("failing_since"),
    /** The event types forwarded; null: all. */
    eventTypes: text("event_types").array(),
    /** The verification methods forwarded; null: all (an event without one included). */
    verificationMethods: text("verification_methods").array(),
    signing: signingModeEnum("signing").notNull().default("service"),
    /**
     * Standard Webhooks only: also forward events the console stored without verifying their signature
     * (`unsigned`). A destination signing as the service never gets them: that signature vouches for the sender.
     */
    includeUnverified: boolean("include_unverified").notNull().default(false),
    /** At most this many deliveries started per second (live, retries and replays alike); null: no cap. */
    maxPerSecond: integer("max_per_second"),
    /** The rate cap's next free slot: a take reserves one slot of 1/maxPerSecond s per delivery, across instances. */
    rateNextAt: at("rate_next_at"),
    /** Failed attempts since the last delivered one: the circuit breaker trips at a threshold. */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    /**
     * Set when the breaker tripped: then one delivery at a time is sent, as a probe, at `probeAt`, until one is
     * delivered.
     */
    trippedAt: at("tripped_at"),
    probeAt: at("probe_at"),
    /** Why this destination cannot sign now (a secret or server key it cannot decrypt), in words; null: it can. */
    signingProblem: text("signing_problem"),
    /** The Standard Webhooks secret, encrypted (lib/secrets.ts, bound to this destination). */
    secretCiphertext: text("secret_ciphertext"),
    /** After a rotation, the previous secret: still signed with until `previousSecretExpiresAt`. */
    previousSecretCiphertext: text("previous_secret_ciphertext"),
    previousSecretExpiresAt: at("previous_secret_expires_at"),
    createdBy: uuid("created_by").references(() => consoleUsers.id, { onDelete: "set null" }),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("forward_destinations_name_idx").on(t.connectionId, sql`lower(${t.name})`)],
);

/**
 * A replay: the events a filter of the log selected, queued to one destination, with who started it and whether it
 * was cancelled.
 */
export const forwardReplays = pgTable("forward_replays", {
  id: uuid("id").primaryKey().defaultRandom(),
  destinationId: uuid("destination_id")
    .notNull()
    .references(() => forwardDestinations.id, { onDelete: "cascade" }),
  /** The log's filters as its link says them (a query string). */
  filters: text("filters").notNull(),
  /** How many events it selected when it started (what it will queue). */
  total: integer("total").notNull(),
  /** How many deliveries it has queued so far: it queues in chunks, so that webhooks keep being stored meanwhile. */
  queued: integer("queued").notNull().default(0),
  /** Where queuing stands: the keyset position of the last event queued (null: none yet). */
  queueCursor: text("queue_cursor"),
  /** When the last chunk was queued (null: still queuing). */
  queuedAt: at("queued_at"),
  createdBy: uuid("created_by").references(() => consoleUsers.id, { onDelete: "set null" }),
  createdAt: at("created_at").notNull().defaultNow(),
  cancelledAt: at("cancelled_at"),
});

/**
 * The outbox: one row per event and destination, written with the event (lib/webhooks/store.ts), by a resend or a
 * replay. `dueAt` is when a worker may take it: the next attempt, or while one is under way the end of its lease, so
 * a crashed worker's delivery is taken again then (at least once).
 */
export const forwardDeliveries = pgTable(
  "forward_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    destinationId: uuid("destination_id")
      .notNull()
      .references(() => forwardDestinations.id, { onDelete: "cascade" }),
    connectionId: uuid("connection_id").notNull(),
    eventId: text("event_id").notNull(),
    state: deliveryStateEnum("state").notNull().default("pending"),
    /** receipt, resend or replay. */
    origin: text("origin").notNull().default("receipt"),
    replayId: uuid("replay_id").references(() => forwardReplays.id, { onDelete: "set null" }),
    attempts: integer("attempts").notNull().default(0),
    dueAt: at("due_at").notNull().defaultNow(),
    /** While an attempt is under way: when its lease ends. Counts the destination's deliveries in flight. */
    leasedUntil: at("leased_until"),
    createdAt: at("created_at").notNull().defaultNow(),
    finishedAt: at("finished_at"),
    /** The last attempt's outcome in words. */
    lastOutcome: text("last_outcome"),
    /**
     * The W3C traceparent of the receipt that queued it, when tracing was on (lib/telemetry): each attempt's span
     * is its child. Null otherwise, and for resends and replays.
     */
    traceParent: text("trace_parent"),
  },
  (t) => [
    index("forward_deliveries_due_idx")
      .on(t.dueAt)
      .where(sql`${t.state} = 'pending'`),
    // A destination's queue, oldest due first: the fair pick takes each destination's next due ones, and its health
    // line counts it.
    index("forward_deliveries_destination_due_idx")
      .on(t.destinationId, t.dueAt)
      .where(sql`${t.state} = 'pending'`),
    // A destination's deliveries in flight (its concurrency and its breaker's one probe at a time), keyed on the lease
    // end so that counting them reads the leases, not its whole history (docs/performance.md, "The in-flight index").
    index("forward_deliveries_in_flight_idx")
      .on(t.destinationId, t.leasedUntil)
      .where(sql`${t.leasedUntil} is not null`),
    index("forward_deliveries_destination_idx").on(t.destinationId, t.createdAt),
    // The retention purge (lib/webhooks/retention.ts) removes deliveries, with their attempts, as it removes events.
    index("forward_deliveries_created_idx").on(t.createdAt),
    index("forward_deliveries_event_idx").on(t.connectionId, t.eventId),
    index("forward_deliveries_replay_idx")
      .on(t.replayId)
      .where(sql`${t.replayId} is not null`),
  ],
);

/** Every attempt to send a delivery: what came back, or why nothing did. */
export const forwardAttempts = pgTable(
  "forward_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    deliveryId: bigint("delivery_id", { mode: "number" })
      .notNull()
      .references(() => forwardDeliveries.id, { onDelete: "cascade" }),
    destinationId: uuid("destination_id").notNull(),
    startedAt: at("started_at").notNull(),
    latencyMs: integer("latency_ms").notNull(),
    /** The HTTP status, or null when nothing was answered. */
    status: integer("status"),
    ok: boolean("ok").notNull(),
    /** What happened, in words ("answered 200", "no answer within 10 s", "the connection was reset"). */
    outcome: text("outcome").notNull(),
    /** The start of the answer's body, at most 4 KiB: shown to admins, never logged. */
    responseBody: text("response_body"),
  },
  (t) => [
    index("forward_attempts_delivery_idx").on(t.deliveryId),
    index("forward_attempts_destination_idx").on(t.destinationId, t.startedAt),
  ],
);

export type ForwardDestination = typeof forwardDestinations.$inferSelect;
