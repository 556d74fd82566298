import "server-only";

import fs from "node:fs";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import type { output, ZodType } from "zod";

import { env } from "@/lib/env";
import { errorMessage } from "@/lib/error-message";
import { logger } from "@/lib/logger";
import { processSingleton } from "@/lib/process-singleton";

import * as alertsSchema from "./alerts-schema";
import * as erasureSchema from "./erasure-schema";
import * as forwardingSchema from "./forwarding-schema";
import * as receivingSchema from "./schema";
import { migrateUnderLock, migrationsFolder } from "./startup-migration";
import * as tokensSchema from "./tokens-schema";

export { MigrationLockTimeoutError } from "./startup-migration";

/**
 * Every table: those of receiving (schema.ts), of forwarding (forwarding-schema.ts), of alerts (alerts-schema.ts),
 * of API tokens (tokens-schema.ts) and of end users' erasures (erasure-schema.ts).
 */
export const schema = { ...receivingSchema, ...forwardingSchema, ...alertsSchema, ...tokensSchema, ...erasureSchema };

/** The one place that knows whether the console runs on embedded PGlite or on PostgreSQL. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * The `tx` of `db.transaction(async (tx) => …)`, on either driver. Inside the callback every query
 * must go through `tx`: on PGlite a query on the database itself waits for the transaction to end.
 */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * What a write runs on: the database, or a transaction the caller holds so that the write commits
 * (or rolls back) together with others, such as a change and its audit record.
 */
export type Executor = Database | Transaction;

/**
 * The rows of a raw `db.execute(sql…)`: both drivers (node-postgres and PGlite) answer `{ rows }`, which the
 * shared PgDatabase type does not say. Typed as `T`, what the statement selects, or parsed by a zod row schema.
 */
export function rowsOf<T>(result: unknown): T[];
export function rowsOf<S extends ZodType>(result: unknown, row: S): Array<output<S>>;
export function rowsOf(result: unknown, row?: ZodType): unknown[] {
  const rows = (result as { rows: unknown[] }).rows;
  return row ? rows.map((r) => row.parse(r)) : rows;
}

export type DatabaseTarget =
  | {
      kind: "postgres";
      url: string;
      poolSize?: number;
      statementTimeoutMs?: number;
      /** How long the startup migration waits for each lock (default 5 s; 0: no limit). */
      migrationLockTimeoutMs?: number;
      /** Tests only: another folder of migrations than lib/db/migrations. */
      migrationsFolder?: string;
    }
  /** `template`: a migrated data directory (PGlite's dumpDataDir) to start an empty `dataDir` (or memory) from. */
  | { kind: "pglite"; dataDir: string | undefined; template?: Blob };

export type DatabaseHandle = { db: Database; close: () => Promise<void> };

export class DatabaseBusyError extends Error {
  override name = "DatabaseBusyError";
}

export function targetFromEnv(): DatabaseTarget {
  const e = env();
  if (e.DATABASE_URL)
    return {
      kind: "postgres",
      url: e.DATABASE_URL,
      poolSize: e.DATABASE_POOL_SIZE,
      statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
      migrationLockTimeoutMs: e.DATABASE_MIGRATION_LOCK_TIMEOUT_MS,
    };
  return { kind: "pglite", dataDir: path.resolve(e.CONSOLE_DATA_DIR, "pglite") };
}

/** Opens a database and applies every pending migration. */
export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === "postgres") {
    // The pool: webhook writes take at most four connections at once (group commit, lib/webhooks/store.ts),
    // the rest serve pages and exports. A statement that runs past the timeout is cancelled, so a
    // runaway read cannot hold a connection (and its locks) for long; migrations lift it for themselves.
    const pool = new pg.Pool({
      connectionString: target.url,
      max: target.poolSize ?? 10,
      statement_timeout: target.statementTimeoutMs ?? 15_000,
    });
    // An idle connection the server drops (a restart, a failover) is replaced on next use; without a
    // listener node-postgres would throw the error and end the process.
    pool.on("error", (error) => logger.warn("idle database connection lost", { error: errorMessage(error) }));
    // A connection lost while checked out (mid-transaction, between two statements) emits its error on
    // the client, where nothing listens, and would end the process: the statement it runs next fails
    // instead, and its caller answers and logs that. The pool does not reuse such a connection.
    pool.on("connect", (client) => client.on("error", () => {}));
    try {
      await migrateUnderLock(pool, target);
    } catch (error) {
      await pool.end().catch(() => {});
      throw error;
    }
    return { db: drizzlePg(pool, { schema }), close: once(() => pool.end()) };
  }
  const releaseLock = target.dataDir ? lockDataDir(target.dataDir) : () => {};
  try {
    const client = await PGlite.create(target.dataDir, { loadDataDir: target.template });
    const db = drizzlePglite(client, { schema });
    await migratePglite(db, { migrationsFolder });
    return {
      db,
      close: once(async () => {
        await client.close();
        releaseLock();
      }),
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}

/** Closing a handle twice (a test's teardown after the process-wide close) is harmless. */
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
}

/**
 * PGlite is single-process: a second process opening the same files would corrupt them.
 * A pid file makes the second one fail with a message that says what to do. Also held by backup and
 * restore (lib/db/backup.ts) for their whole run. Returns the release.
 */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(path.dirname(dataDir), "pglite.pid");
  const holder = readLockHolder(lockFile);
  if (holder !== undefined && holder !== process.pid && isAlive(holder)) {
    throw new DatabaseBusyError(
      `The embedded database in ${path.dirname(dataDir)} is in use by another process (pid ${holder}), ` +
        "most likely the running console. Stop it first, or point DATABASE_URL at PostgreSQL to share a database.",
    );
  }
  fs.writeFileSync(lockFile, String(process.pid));
  const release = () => {
    // A process that opens and closes many (the reliability suite's scenarios) keeps no listener per close.
    process.off("exit", release);
    if (readLockHolder(lockFile) === process.pid) fs.rmSync(lockFile, { force: true });
  };
  process.once("exit", release);
  return release;
}

function readLockHolder(lockFile: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(lockFile, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

// One handle per process, so dev-mode reloads and Next's server layers do not open a second PGlite.
const state = () => processSingleton("db.handle", (): { handle?: Promise<DatabaseHandle> } => ({}));

/** The process-wide database, opened and migrated on first use. */
export async function getDb(): Promise<Database> {
  const held = state();
  held.handle ??= openDatabase(targetFromEnv()).catch((error) => {
    held.handle = undefined;
    throw error;
  });
  return (await held.handle).db;
}

/**
 * Runs `work` on one connection of its own (on PostgreSQL taken from the pool and closed after, so no session state
 * outlives it; on PGlite the only one): for advisory locks, settings and statements that cannot run in a transaction.
 * The process's database is read at the call, before anything is awaited.
 */
export async function withOwnConnection<T>(work: (db: Database) => Promise<T>): Promise<T> {
  const db = await getDb();
  const pool = poolOf(db);
  if (!pool) return work(db);
  const connection = await pool.connect();
  try {
    return await work(drizzlePg(connection, { schema }) as unknown as Database);
  } finally {
    connection.release(true);
  }
}

/**
 * How long a lasting client's connection may be silent before TCP probes it: one that only listens
 * sends nothing, and a network that drops it silently would otherwise leave it deaf for good.
 */
const UNPOOLED_KEEPALIVE_MS = 30_000;

/** The PostgreSQL pool under a database, or null for PGlite. */
function poolOf(db: Database): pg.Pool | null {
  const client = (db as unknown as { $client: unknown }).$client;
  return client instanceof pg.Pool ? client : null;
}

/**
 * A new client of the process-wide PostgreSQL database, outside its pool and not yet connected, for a
 * session that lasts (LISTEN: lib/db/notifications.ts); null on PGlite. Its caller connects and ends it.
 */
export async function newUnpooledClient(): Promise<pg.Client | null> {
  const pool = poolOf(await getDb());
  return (
    pool && new pg.Client({ ...pool.options, keepAlive: true, keepAliveInitialDelayMillis: UNPOOLED_KEEPALIVE_MS })
  );
}

/** Replaces the process-wide database (tests and scripts that open their own). */
export function installDatabase(handle: DatabaseHandle): void {
  state().handle = Promise.resolve(handle);
}

export async function closeDb(): Promise<void> {
  const held = state();
  const handle = held.handle;
  held.handle = undefined;
  if (handle) await (await handle).close();
}

/** True when the database answers a trivial query within the time limit. */
export async function isDatabaseReachable(timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const ping = getDb()
    .then((db) => db.execute(sql`select 1`))
    .then(() => true)
    .catch(() => false);
  try {
    return await Promise.race([ping, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
