import "server-only";

import path from "node:path";

import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import type pg from "pg";

/** The migrations every console applies at start (drizzle's journal in meta/). */
export const migrationsFolder = path.join(process.cwd(), "lib/db/migrations");
/** Any fixed number: serialises migrations when several console instances start at once. */
const MIGRATION_LOCK_ID = 724_117_001;

/** What a PostgreSQL startup migration reads of its target (lib/db/index.ts's DatabaseTarget). */
type PostgresTarget = { migrationLockTimeoutMs?: number; migrationsFolder?: string };

/** What a startup migration that waited out its lock timeout throws (the transaction rolled back; nothing applied). */
export class MigrationLockTimeoutError extends Error {
  override name = "MigrationLockTimeoutError";
}

/**
 * Applies the pending migrations on one connection of the pool, under the advisory lock that lets instances start
 * together (the second waits for the first, then finds nothing to apply). The lock timeout is set only once that
 * lock is held, so it does not cut short that wait: a migration's ALTER queued behind a long transaction would make
 * every later query on its table queue behind it, and the whole console with them; with the limit the migration
 * rolls back after a few seconds and this instance fails to start (its supervisor starts it again) while the others
 * keep serving.
 */
export async function migrateUnderLock(pool: pg.Pool, target: PostgresTarget): Promise<void> {
  const lockTimeoutMs = target.migrationLockTimeoutMs ?? 5_000;
  const client = await pool.connect();
  try {
    await client.query("set statement_timeout = 0");
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    await client.query(`set lock_timeout = ${lockTimeoutMs}`);
    await migrate(drizzle(client), { migrationsFolder: target.migrationsFolder ?? migrationsFolder });
  } catch (error) {
    // 55P03: lock_not_available, what PostgreSQL answers when lock_timeout runs out (drizzle wraps it in `cause`).
    if (![error, (error as Error).cause].some((e) => (e as { code?: string } | undefined)?.code === "55P03"))
      throw error;
    throw new MigrationLockTimeoutError(
      `The startup migration waited more than ${lockTimeoutMs} ms for a lock another session holds on a table it ` +
        "changes, and was rolled back. Start again once that session ends (DATABASE_MIGRATION_LOCK_TIMEOUT_MS).",
      { cause: error },
    );
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
    await client.query("reset lock_timeout").catch(() => {});
    await client.query("reset statement_timeout").catch(() => {});
    client.release();
  }
}
