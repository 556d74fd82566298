import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type ExtraConfigColumn,
} from "drizzle-orm/pg-core";

// Relative, not "@/": drizzle-kit reads this file without the app's path aliases.
import { deliveryDelayBucket, outsideDeliveryWindow, receivedHourUtc } from "./event-expressions";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

export const roleEnum = pgEnum("console_role", ["admin", "support"]);
export const regionEnum = pgEnum("service_region", ["us", "eu", "au", "ca"]);
export const secretKindEnum = pgEnum("secret_kind", ["management", "server", "server_secondary"]);

export const consoleUsers = pgTable(
  "console_users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    role: roleEnum("role").notNull(),
    /** Null for a user who signs in only through single sign-on, or who has not set a password yet. */
    passwordHash: text("password_hash"),
    disabled: boolean("disabled").notNull().default(false),
    /**
     * Every session carries the version it was issued under; bumping it (disable, role change, revoke,
     * password change) ends all of the user's sessions at their next request, on every instance.
     */
    sessionVersion: integer("session_version").notNull().default(1),
    /** The OpenID Connect issuer and subject of a user who signed in through single sign-on. */
    oidcIssuer: text("oidc_issuer"),
    oidcSubject: text("oidc_subject"),
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }),
    /** SHA-256 of a one-time set-password link's token, and when the link stops working. */
    passwordSetupTokenHash: text("password_setup_token_hash"),
    passwordSetupExpiresAt: timestamp("password_setup_expires_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("console_users_email_lower_idx").on(sql`lower(${t.email})`),
    uniqueIndex("console_users_oidc_idx").on(t.oidcIssuer, t.oidcSubject),
    uniqueIndex("console_users_password_setup_idx").on(t.passwordSetupTokenHash),
  ],
);

export const loginAttempts = pgTable(
  "login_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    email: text("email").notNull(),
    ip: text("ip").notNull(),
    succeeded: boolean("succeeded").notNull(),
    attemptedAt: timestamp("attempted_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * The id of the device cookie the attempt came with, when it was valid for the email
     * (lib/auth/device-cookie.ts).
     */
    device: text("device"),
  },
  (t) => [
    index("login_attempts_email_idx").on(t.email, t.attemptedAt),
    index("login_attempts_ip_idx").on(t.ip, t.attemptedAt),
    index("login_attempts_email_ip_idx").on(t.email, t.ip, t.attemptedAt),
    index("login_attempts_device_idx")
      .on(t.device, t.attemptedAt)
      .where(sql`${t.device} is not null`),
  ],
);

export const connections = pgTable(
  "connections",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    region: regionEnum("region").notNull(),
    /** When the management key was last accepted by the region (null: saved unverified). */
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    /** SHA-256 of the webhook URL token, for lookup; the token itself is stored encrypted. */
    webhookTokenHash: text("webhook_token_hash").notNull(),
    webhookTokenCiphertext: text("webhook_token_ciphertext").notNull(),
    createdBy: uuid("created_by").references(() => consoleUsers.id, { onDelete: "set null" }),
    updatedBy: uuid("updated_by").references(() => consoleUsers.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("connections_name_lower_idx").on(sql`lower(${t.name})`),
    uniqueIndex("connections_webhook_token_idx").on(t.webhookTokenHash),
  ],
);

/** Keys of a connection, encrypted with lib/secrets.ts; only the last four characters are kept in clear. */
export const connectionSecrets = pgTable(
  "connection_secrets",
  {
    connectionId: uuid("connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    kind: secretKindEnum("kind").notNull(),
    ciphertext: text("ciphertext").notNull(),
    last4: text("last4").notNull(),
    setAt: timestamp("set_at", { withTimezone: true }).notNull().defaultNow(),
    setBy: uuid("set_by").references(() => consoleUsers.id, { onDelete: "set null" }),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.kind] })],
);

export const dataPointWatches = pgTable(
  "data_point_watches",
  {
    connectionId: uuid("connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    dataPointId: text("data_point_id").notNull(),
    addedBy: uuid("added_by").references(() => consoleUsers.id, { onDelete: "set null" }),
    addedAt: timestamp("added_at", { withTimezone: true }).notNull().defaultNow(),
    lastFetchedAt: timestamp("last_fetched_at", { withTimezone: true }),
    /** Outcome of the last fetch: ok, not_found, unauthorized, rate_limited, unavailable, invalid_response. */
    lastStatus: text("last_status"),
    /** The data point as last returned by the service. */
    snapshot: jsonb("snapshot"),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.dataPointId] })],
);

/** Append-only record of every change made through the console. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid("actor_id"),
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    connectionId: uuid("connection_id"),
    connectionName: text("connection_name"),
    target: text("target"),
    outcome: text("outcome").notNull(),
    httpStatus: integer("http_status"),
    requestId: text("request_id"),
    details: jsonb("details"),
  },
  (t) => [
    index("audit_log_at_idx").on(t.at.desc(), t.id.desc()),
    index("audit_log_actor_idx").on(t.actorEmail, t.at.desc()),
    index("audit_log_action_idx").on(t.action, t.at.desc()),
    index("audit_log_connection_idx").on(t.connectionId, t.at.desc()),
  ],
);

/**
 * One row per (connection, event id): redeliveries bump deliveryCount. Partitioned by UTC month of receipt
 * (lib/webhooks/partitions.ts), so no unique index can hold (connection, event id): it is a plain index, and storing
 * locks the pair first (lib/webhooks/store.ts) to keep it one row.
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: bigserial("id", { mode: "number" }).notNull(),
    connectionId: uuid("connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    tenantId: text("tenant_id").notNull(),
    envelopeTime: timestamp("envelope_time", { withTimezone: true, precision: 3 }).notNull(),
    firstReceivedAt: timestamp("first_received_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    lastReceivedAt: timestamp("last_received_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    deliveryCount: integer("delivery_count").notNull().default(1),
    /** verified_key1, verified_key2 or unsigned. */
    signatureStatus: text("signature_status").notNull(),
    rawBody: text("raw_body").notNull(),
    /**
     * A test event the console itself signed and sent through its public receiver URL ("Send a test
     * event"); its id starts with TEST_EVENT_ID_PREFIX (lib/webhooks/constants.ts). Shown with a badge,
     * left out of the overview's counts and charts.
     */
    isTest: boolean("is_test").notNull().default(false),
    userId: text("user_id"),
    verificationMethod: text("verification_method"),
    authenticatorCreatedAt: timestamp("authenticator_created_at", { withTimezone: true, precision: 3 }),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }),
    userAuthenticatorId: text("user_authenticator_id"),
    deviceName: text("device_name"),
    devicePlatform: text("device_platform"),
    email: text("email"),
    phoneNumber: text("phone_number"),
    credentialId: text("credential_id"),
    aaguid: text("aaguid"),
    credentialName: text("credential_name"),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.firstReceivedAt] }),
    index("webhook_events_connection_event_idx").on(t.connectionId, t.eventId),
    // The log (lib/webhooks/webhooks.ts) reads newest first: every index below ends in (first received,
    // id) DESC NULLS LAST, the query's exact order, after the equality filters it serves, so a filtered
    // page is the first rows of one index range, never a walk that discards rows. The plan test
    // (lib/webhooks/query-plans.test.ts) holds every filter combination to that.
    index("webhook_events_received_idx").on(...newestFirst(t)),
    index("webhook_events_type_received_idx").on(t.type, ...newestFirst(t)),
    index("webhook_events_connection_log_idx").on(t.connectionId, ...newestFirst(t)),
    index("webhook_events_method_idx").on(t.verificationMethod, ...newestFirst(t)),
    index("webhook_events_platform_idx").on(t.devicePlatform, ...newestFirst(t)),
    index("webhook_events_method_platform_idx").on(t.verificationMethod, t.devicePlatform, ...newestFirst(t)),
    index("webhook_events_connection_method_idx").on(t.connectionId, t.verificationMethod, ...newestFirst(t)),
    index("webhook_events_connection_platform_idx").on(t.connectionId, t.devicePlatform, ...newestFirst(t)),
    index("webhook_events_connection_method_platform_idx").on(
      t.connectionId,
      t.verificationMethod,
      t.devicePlatform,
      ...newestFirst(t),
    ),
    index("webhook_events_delay_idx").on(deliveryDelayBucket(t.firstReceivedAt, t.expiresAt), ...newestFirst(t)),
    index("webhook_events_test_idx")
      .on(...newestFirst(t))
      .where(sql`${t.isTest}`),
    index("webhook_events_user_prefix_idx").using("btree", t.userId.op("text_pattern_ops")),
    // A user-id prefix in one connection: that connection's matches only, not every connection's.
    index("webhook_events_connection_user_prefix_idx").using("btree", t.connectionId, t.userId.op("text_pattern_ops")),
    index("webhook_events_user_authenticator_idx").on(t.userAuthenticatorId),
    // Events of other kinds than authenticator.expired keep their user only in the raw body: an erasure
    // (lib/erasure) reads these few rather than every event.
    index("webhook_events_without_user_idx")
      .on(t.connectionId)
      .where(sql`${t.userId} is null`),
    // An expiry filter reads events delivered within a day of expiring (the service's rule, nearly all)
    // through the received-time indexes, in the window the range implies; this one holds the rest.
    index("webhook_events_expiry_outside_window_idx")
      .on(t.expiresAt)
      .where(outsideDeliveryWindow(t.firstReceivedAt, t.expiresAt)),
    // The overview (lib/overview): each connection's real events by receipt, with what its health card
    // counts, so the last event and the 24 h counts read the index alone.
    index("webhook_events_connection_received_idx")
      .on(t.connectionId, t.firstReceivedAt, t.signatureStatus)
      .where(sql`not ${t.isTest}`),
    // The overview's 7-day charts of real authenticator.expired events: hour of receipt, method and delay
    // bucket are in the index, so the charts group its entries without reading the table or computing
    // anything per row (an index-only scan).
    index("webhook_events_expired_hour_idx")
      .on(
        receivedHourUtc(t.firstReceivedAt),
        t.verificationMethod,
        deliveryDelayBucket(t.firstReceivedAt, t.expiresAt),
        t.firstReceivedAt,
        t.expiresAt,
      )
      .where(sql`${t.type} = 'authenticator.expired' and not ${t.isTest}`),
  ],
);

/** Every refused webhook request, so "why did my webhook not arrive" has an answer. */
export const webhookRejections = pgTable(
  "webhook_rejections",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    connectionId: uuid("connection_id").references(() => connections.id, { onDelete: "cascade" }),
    receivedAt: timestamp("received_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    status: integer("status").notNull(),
    reason: text("reason").notNull(),
    detail: text("detail"),
    eventId: text("event_id"),
    bodySha256: text("body_sha256").notNull(),
    headers: jsonb("headers").notNull(),
  },
  (t) => [
    index("webhook_rejections_received_idx").on(t.receivedAt.desc(), t.id.desc()),
    index("webhook_rejections_connection_idx").on(t.connectionId, t.receivedAt.desc()),
    // An erasure (lib/erasure) removes the refusals of a user's events by their event id.
    index("webhook_rejections_event_idx")
      .on(t.connectionId, t.eventId)
      .where(sql`${t.eventId} is not null`),
  ],
);

/** The log's order, newest first, as every index of the log ends (drizzle's DESC is NULLS LAST). */
function newestFirst(t: { firstReceivedAt: ExtraConfigColumn; id: ExtraConfigColumn }) {
  return [t.firstReceivedAt.desc(), t.id.desc()] as const;
}

export type ConsoleUser = typeof consoleUsers.$inferSelect;
export type Role = (typeof roleEnum.enumValues)[number];
export type Region = (typeof regionEnum.enumValues)[number];
export type Connection = typeof connections.$inferSelect;
