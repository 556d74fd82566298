/**
 * Bulk-loads webhook history straight into the database (INSERT … SELECT FROM generate_series) for benchmarks and
 * the demo's history: a million events in about a minute, not through the HTTP path. Pseudo-random but
 * deterministic, so two loads of one size are the same data (its shape: docs/performance.md, "The bulk-loaded data").
 */
import crypto from "node:crypto";

import { sql, type SQL } from "drizzle-orm";

import { newWebhookToken } from "@/lib/connections/webhook-token";
import type { Database, Executor } from "@/lib/db";
import { connections, connectionSecrets } from "@/lib/db/schema";
import { encryptSecret, fingerprint } from "@/lib/secrets";
import { TEST_EVENT_ID_PREFIX } from "@/lib/webhooks/constants";
import { ensureEventPartitions } from "@/lib/webhooks/partitions";

export type BulkConnection = { id: string; name: string; signed: boolean };

/** Connections named `${prefix} 01`…; all but the last `unsigned` hold a server key. */
export async function insertBulkConnections(
  db: Database,
  count: number,
  { prefix = "Tenant", unsigned = 2 } = {},
): Promise<BulkConnection[]> {
  const created: BulkConnection[] = [];
  for (let i = 0; i < count; i++) {
    const id = crypto.randomUUID();
    const name = `${prefix} ${String(i + 1).padStart(2, "0")}`;
    const token = newWebhookToken(id);
    await db.insert(connections).values({
      id,
      name,
      region: (["us", "eu", "au", "ca"] as const)[i % 4]!,
      verifiedAt: new Date(),
      webhookTokenHash: token.hash,
      webhookTokenCiphertext: token.ciphertext,
    });
    const signed = i < count - unsigned;
    if (signed) {
      const key = `bulk_srv_${crypto.randomBytes(16).toString("hex")}`;
      await db.insert(connectionSecrets).values({
        connectionId: id,
        kind: "server",
        ciphertext: encryptSecret(key, { connectionId: id, kind: "server" }),
        last4: fingerprint(key),
      });
    }
    created.push({ id, name, signed });
  }
  return created;
}

export type BulkLoadOptions = {
  /** The connections the history belongs to, most events first (see insertBulkConnections). */
  connections: readonly BulkConnection[];
  events: number;
  /** Rejections to add; one per 50 events unless said. */
  rejections?: number;
  /** How far back received times go. */
  days?: number;
  users?: number;
  now?: Date;
  /** Rows per INSERT statement: bounds the memory one statement takes. */
  batch?: number;
  /** Event ids are `${idPrefix}${n}`: a second load into the same connections needs another prefix. */
  idPrefix?: string;
  /**
   * Drop the tables' secondary indexes for the load and build them again after it (in one sort each,
   * several times faster than keeping them up to date row by row). On unless fewer than 100k events.
   */
  deferIndexes?: boolean;
};

/** The loader makes up each row's tenant id: this prefix and the connection's place in the list. */
export const BULK_TENANT_PREFIX = "tenant-";

export type BulkLoadResult = { events: number; rejections: number; seconds: number };

/** A deterministic uniform number in [0, 1) for row `g` and dimension `k`. */
const uniform = (k: number) => sql.raw(`((hashint8(g * 31 + ${k})::bigint + 2147483648) / 4294967296.0)`);

const METHODS = [
  "PUSH",
  "PUSH",
  "PUSH",
  "SMS",
  "SMS",
  "EMAIL_OTP",
  "EMAIL_OTP",
  "PASSKEY",
  "AUTHENTICATOR_APP",
  "SECURITY_KEY",
  "EMAIL_MAGIC_LINK",
  "WHATSAPP",
];
const OTHER_TYPES = ["authenticator.created", "authenticator.updated", "authenticator.deleted"];
/** Reasons weighted by how often each happens; unknown_token has no connection. */
const REASONS = [
  "bad_signature",
  "bad_signature",
  "bad_signature",
  "stale_timestamp",
  "stale_timestamp",
  "unknown_token",
  "unknown_token",
  "malformed_json",
  "invalid_envelope",
  "unsupported_media_type",
  "too_large",
  "conflicting_redelivery",
];

const textArray = (values: readonly string[]) =>
  sql.raw(`array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(",")}]::text[]`);
const uuidArray = (ids: readonly string[]) => sql.raw(`array[${ids.map((id) => `'${z(id)}'`).join(",")}]::uuid[]`);
function z(id: string): string {
  if (!/^[0-9a-f-]{36}$/.test(id)) throw new Error(`not a connection id: ${id}`);
  return id;
}
/** 1-based pick from an array literal by a uniform number. */
const pick = (array: SQL, length: number, u: SQL) => sql`(${array})[1 + floor(${u} * ${sql.raw(String(length))})::int]`;

/**
 * Runs `fn` in one transaction free of the pool's statement timeout (lib/db's, for a runaway read): a batch of 100k
 * rows or an index rebuilt over millions may take longer on a busy machine, as it did once in CI's PostgreSQL run at
 * nice 19 beside e2e.
 */
export async function inUntimedTransaction(db: Database, fn: (tx: Executor) => Promise<unknown>): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local statement_timeout = 0`);
    await fn(tx);
  });
}

export async function bulkLoad(db: Database, loadOptions: BulkLoadOptions): Promise<BulkLoadResult> {
  const started = performance.now();
  const options = { ...loadOptions, now: loadOptions.now ?? new Date(), days: loadOptions.days ?? 90 };
  const deferIndexes = options.deferIndexes ?? options.events >= 100_000;
  // Before the transaction: a partition another instance makes at the same moment fails its statement.
  await ensureEventPartitions(new Date(options.now.getTime() - options.days * 86_400_000), options.now, db);
  await inUntimedTransaction(db, (tx) =>
    deferIndexes
      ? withoutSecondaryIndexes(tx, ["webhook_events", "webhook_rejections"], () => insertRows(tx, options))
      : insertRows(tx, options),
  );
  return {
    events: options.events,
    rejections: options.rejections ?? Math.floor(options.events / 50),
    seconds: (performance.now() - started) / 1000,
  };
}

/** Runs `fn` with the tables' non-unique indexes dropped, then creates them again exactly as they were. */
async function withoutSecondaryIndexes(db: Executor, tables: string[], fn: () => Promise<void>): Promise<void> {
  const result = (await db.execute(sql`
    select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
    from pg_index i
    where i.indrelid in (${sql.join(
      tables.map((t) => sql`${t}::regclass`),
      sql`, `,
    )}) and not i.indisunique`)) as unknown as { rows: Array<{ name: string; definition: string }> };
  for (const { name } of result.rows) await db.execute(sql.raw(`drop index ${name}`));
  try {
    await fn();
  } finally {
    // A partitioned table's index reads "ON ONLY" (that table alone): without it, every partition gets its own.
    for (const { definition } of result.rows) await db.execute(sql.raw(definition.replace(" ON ONLY ", " ON ")));
  }
}

async function insertRows(db: Executor, options: BulkLoadOptions & { now: Date; days: number }): Promise<void> {
  const { connections: targets, events, days, users = 200_000, now, batch = 100_000, idPrefix = "bulk-" } = options;
  const rejections = options.rejections ?? Math.floor(events / 50);
  const ids = uuidArray(targets.map((c) => c.id));
  const signed = sql.raw(`array[${targets.map((c) => (c.signed ? "true" : "false")).join(",")}]::boolean[]`);
  const n = sql.raw(String(targets.length));
  const at = sql`${now.toISOString()}::timestamptz`;
  const span = sql.raw(`interval '${days} days'`);

  for (let from = 1; from <= events; from += batch) {
    const to = Math.min(events, from + batch - 1);
    // Skewed sizes: the square of a uniform number puts most rows on the first connections.
    await db.execute(sql`
      insert into webhook_events (connection_id, event_id, type, tenant_id, envelope_time, first_received_at, last_received_at,
        delivery_count, signature_status, raw_body, is_test, user_id, verification_method, authenticator_created_at, expires_at,
        user_authenticator_id, device_name, device_platform)
      select (${ids})[ci + 1], id, type, ${BULK_TENANT_PREFIX} || ci, received, received, received, 1,
        case when not (${signed})[ci + 1] then 'unsigned' when ${uniform(9)} < 0.1 then 'verified_key2' else 'verified_key1' end,
        json_build_object('version', 1, 'id', id, 'type', type, 'time', received, 'data',
          json_build_object('userId', user_id, 'verificationMethod', method, 'expiresAt', expires_at, 'devicePlatform', platform))::text,
        is_test, user_id, method, expires_at - interval '30 days', expires_at, 'ua_' || g, case when platform is null then null else 'Device ' || (g % 500) end, platform
      from (
        select g, ci, received, method, platform, is_test,
          case when is_test then ${TEST_EVENT_ID_PREFIX} else ${idPrefix} end || g as id,
          'usr_' || floor(${uniform(7)} * ${sql.raw(String(users))})::int as user_id,
          case when ${uniform(8)} < 0.94 then 'authenticator.expired' else ${pick(textArray(OTHER_TYPES), OTHER_TYPES.length, uniform(10))} end as type,
          received - make_interval(secs => case
            when ${uniform(5)} < 0.55 then ${uniform(6)} * 59
            when ${uniform(5)} < 0.75 then 60 + ${uniform(6)} * 540
            when ${uniform(5)} < 0.85 then 600 + ${uniform(6)} * 3000
            when ${uniform(5)} < 0.93 then 3600 + ${uniform(6)} * 18000
            when ${uniform(5)} < 0.98 then 21600 + ${uniform(6)} * 64800
            else 86400 + ${uniform(6)} * 86400 end) as expires_at
        from (
          select g,
            floor(power(${uniform(1)}, 2) * ${n})::int as ci,
            date_trunc('milliseconds', ${at} - ${span} * ${uniform(2)}) as received,
            ${pick(textArray(METHODS), METHODS.length, uniform(3))} as method,
            case when ${uniform(4)} < 0.4 then 'IOS' when ${uniform(4)} < 0.75 then 'ANDROID' end as platform,
            g % 1000 = 0 as is_test
          from generate_series(${from}::int, ${to}::int) g
        ) base
      ) s`);
  }

  if (rejections > 0) {
    const burst = Math.min(200, Math.floor(rejections / 10));
    await db.execute(sql`
      insert into webhook_rejections (connection_id, received_at, status, reason, detail, event_id, body_sha256, headers)
      select case when reason = 'unknown_token' then null else (${ids})[ci + 1] end, received,
        case reason when 'unknown_token' then 404 when 'too_large' then 413 when 'unsupported_media_type' then 415
          when 'bad_signature' then 401 when 'stale_timestamp' then 401 when 'conflicting_redelivery' then 200 else 400 end,
        reason, 'bulk-loaded', 'rejected-' || g, md5(g::text) || md5(reason), '{"content-type":"application/json"}'::jsonb
      from (
        select g,
          case when g <= ${burst} then 0 else floor(power(${uniform(11)}, 2) * ${n})::int end as ci,
          case when g <= ${burst} then ${at} - interval '3 hours' * ${uniform(12)} else date_trunc('milliseconds', ${at} - ${span} * ${uniform(13)}) end as received,
          case when g <= ${burst} then 'bad_signature' else ${pick(textArray(REASONS), REASONS.length, uniform(14))} end as reason
        from generate_series(1, ${rejections}::int) g
      ) s`);
  }
}
