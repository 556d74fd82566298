import "server-only";

import { and, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";

import { getDb, type Database, type Executor } from "@/lib/db";
import { alertNoticeTargets } from "@/lib/db/alerts-schema";
import { forwardDestinations } from "@/lib/db/forwarding-schema";
import { connections, connectionSecrets } from "@/lib/db/schema";
import { errorMessage } from "@/lib/error-message";
import { logger } from "@/lib/logger";
import { keyringFromEnv, needsRotation, resealSecret, SecretDecryptionError, type SecretBinding } from "@/lib/secrets";

type Keyring = ReturnType<typeof keyringFromEnv>;

export type RotationReport = {
  /** v1 values, now bound to the row and purpose they are stored for (and under the current key). */
  rebound: number;
  /** Bound values moved from an older CONSOLE_ENCRYPTION_KEY to the current one. */
  reencrypted: number;
  /** Already bound and under the current key: left alone. */
  current: number;
  /** Left as they were: sealed with a key not configured, or bound to another row (see the warnings). */
  unreadable: number;
};

type StoredValue = {
  binding: SecretBinding;
  sealed: string;
  replace: (db: Executor, resealed: string) => Promise<boolean>;
};

/** How to replace the value `sealed` in `column` of the row `row` selects: only if it still holds what was read. */
function replaceIfUnchanged(column: AnyPgColumn, row: SQL | undefined, sealed: string): StoredValue["replace"] {
  const table = column.table as PgTable;
  const field = Object.entries(getTableColumns(table)).find(([, c]) => c === column)![0];
  return async (db, resealed) =>
    (
      await db
        .update(table)
        .set({ [field]: resealed })
        .where(and(row, eq(column, sealed)))
        .returning({ one: sql`1` })
    ).length > 0;
}

/** Every sealed value in the database, with how to replace it only if it still holds what was read. */
async function storedValues(db: Executor): Promise<StoredValue[]> {
  const secrets = await db.select().from(connectionSecrets);
  const tokens = await db.select({ id: connections.id, sealed: connections.webhookTokenCiphertext }).from(connections);
  return [
    ...secrets.map((s) => ({
      binding: { connectionId: s.connectionId, kind: s.kind },
      sealed: s.ciphertext,
      replace: replaceIfUnchanged(
        connectionSecrets.ciphertext,
        and(eq(connectionSecrets.connectionId, s.connectionId), eq(connectionSecrets.kind, s.kind)),
        s.ciphertext,
      ),
    })),
    ...(await destinationSecrets(db)),
    ...(await noticeTargetSecrets(db)),
    ...tokens.map((t) => ({
      binding: { connectionId: t.id, kind: "webhook_token" as const },
      sealed: t.sealed,
      replace: replaceIfUnchanged(connections.webhookTokenCiphertext, eq(connections.id, t.id), t.sealed),
    })),
  ];
}

/**
 * The forwarding destinations' Standard Webhooks secrets (the current one and, after a rotation, the
 * previous one), bound to their destination. Read from the table itself: lib/db is the ground under
 * both features, and rotation must reach every sealed value.
 */
async function destinationSecrets(db: Executor): Promise<StoredValue[]> {
  const rows = await db.select().from(forwardDestinations);
  const columns = [
    { kind: "destination_secret", column: forwardDestinations.secretCiphertext, field: "secretCiphertext" },
    {
      kind: "destination_previous_secret",
      column: forwardDestinations.previousSecretCiphertext,
      field: "previousSecretCiphertext",
    },
  ] as const;
  return rows.flatMap((row) =>
    columns
      .filter(({ field }) => row[field] !== null)
      .map(({ kind, column, field }) => ({
        binding: { connectionId: row.connectionId, destinationId: row.id, kind },
        sealed: row[field]!,
        replace: replaceIfUnchanged(column, eq(forwardDestinations.id, row.id), row[field]!),
      })),
  );
}

/**
 * The console-wide alert notice targets' Standard Webhooks secrets, each bound to its target's row
 * (lib/secrets.ts). Read from lib/db/alerts-schema.ts, as lib/connections may not use lib/alerts.
 */
async function noticeTargetSecrets(db: Executor): Promise<StoredValue[]> {
  const rows = await db
    .select({ id: alertNoticeTargets.id, sealed: alertNoticeTargets.secretCiphertext })
    .from(alertNoticeTargets);
  return rows.map((row) => ({
    binding: { kind: "alert_target_secret" as const, targetId: row.id },
    sealed: row.sealed,
    replace: replaceIfUnchanged(alertNoticeTargets.secretCiphertext, eq(alertNoticeTargets.id, row.id), row.sealed),
  }));
}

/**
 * `npm run secrets -- rotate`: re-binds every v1 value and re-encrypts every value under the current
 * CONSOLE_ENCRYPTION_KEY, idempotently. A value is rewritten only if it still holds what was read (a concurrent edit
 * wins); one that cannot be read is counted and left, and the warning names its row, never its content.
 */
export async function rotateStoredSecrets(
  keyring: Keyring = keyringFromEnv(),
  executor?: Executor,
): Promise<RotationReport> {
  const db = executor ?? (await getDb());
  const report: RotationReport = { rebound: 0, reencrypted: 0, current: 0, unreadable: 0 };
  for (const value of await storedValues(db)) {
    if (!needsRotation(value.sealed, keyring)) {
      report.current++;
      continue;
    }
    let resealed: string;
    try {
      resealed = resealSecret(value.sealed, value.binding, keyring);
    } catch (error) {
      if (!(error instanceof SecretDecryptionError)) throw error;
      logger.warn("stored secret cannot be read; left as it is", {
        ...value.binding,
        reason: error.reason,
        detail: errorMessage(error),
      });
      report.unreadable++;
      continue;
    }
    if (await value.replace(db, resealed)) report[value.sealed.startsWith("v1.") ? "rebound" : "reencrypted"]++;
  }
  return report;
}

/**
 * Run at start-up (lib/startup.ts) and by `npm run db:migrate`: a database written before values were bound has them
 * all re-bound in one transaction. Once any value is bound, a v1 value found later was written by an older console or
 * planted, and re-binding it would launder it into its row, so it stays refused until an operator runs rotate.
 */
export async function bindLegacySecrets(
  db: Database,
  keyring: () => Keyring = keyringFromEnv,
): Promise<RotationReport | undefined> {
  const versions = new Set(
    [
      ...(await db
        .selectDistinct({ version: sql<string>`split_part(${connectionSecrets.ciphertext}, '.', 1)` })
        .from(connectionSecrets)),
      ...(await db
        .selectDistinct({ version: sql<string>`split_part(${connections.webhookTokenCiphertext}, '.', 1)` })
        .from(connections)),
    ].map((row) => row.version),
  );
  if (!versions.has("v1")) return undefined;
  if (versions.has("v2")) {
    logger.warn(
      "some stored secrets are not bound to their connection and are refused; run `npm run secrets -- rotate` to re-bind them",
    );
    return undefined;
  }
  const report = await db.transaction((tx) => rotateStoredSecrets(keyring(), tx));
  logger.info("stored secrets bound to their connection and purpose", report);
  return report;
}
