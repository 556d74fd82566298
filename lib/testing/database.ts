import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { inject } from "vitest";

import { closeDb, installDatabase, openDatabase, schema, type Database, type DatabaseHandle } from "@/lib/db";

import { databaseUrl, withAdminClient } from "./templates";
import { scaled } from "./timeouts";

/**
 * Gives a test file a fresh, migrated database of the same kind the suite runs on:
 * a new PostgreSQL database when DATABASE_URL is set, else an in-memory PGlite (each a copy of the run's
 * migrated template, lib/testing/templates.ts).
 */
export async function setUpTestDatabase(): Promise<{
  db: Database;
  handle: DatabaseHandle;
  url?: string;
  tearDown: () => Promise<void>;
}> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const handle = await openTestPglite(undefined);
    installDatabase(handle);
    return { db: handle.db, handle, tearDown: () => closeTestDatabase(handle) };
  }
  const name = `console_test_${crypto.randomBytes(6).toString("hex")}`;
  await withAdminClient(adminUrl, (c) => c.query(`create database ${name} template ${inject("postgresTemplate")}`));
  const url = databaseUrl(adminUrl, name);
  // The server's statement timeout is a real-time limit like a test's: on a starved machine (CI's PostgreSQL run at
  // nice 19) a statement waiting on a lock behind others runs past 15 s, so it scales as the tests' limits do.
  const handle = await openDatabase({ kind: "postgres", url, statementTimeoutMs: scaled(15_000) });
  installDatabase(handle);
  return {
    db: handle.db,
    handle,
    url,
    tearDown: async () => {
      await closeTestDatabase(handle);
      await withAdminClient(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/**
 * Opens an embedded database, in memory or in `dataDir`; one that does not exist yet starts, in a Vitest
 * run, as a copy of the run's migrated template (lib/testing/global-setup.ts) instead of being
 * initialised and migrated.
 */
export async function openTestPglite(dataDir: string | undefined): Promise<DatabaseHandle> {
  const fresh = !dataDir || !fs.existsSync(path.join(dataDir, "PG_VERSION"));
  // Outside Vitest (the bench's overview part) there is no run template: the database is migrated instead.
  const template = fresh && process.env.VITEST ? new Blob([fs.readFileSync(inject("pgliteTemplate"))]) : undefined;
  return openDatabase({ kind: "pglite", dataDir, template });
}

/**
 * Opens the embedded database in `dataDir` for the time of `fn` and installs it as the process's own: a
 * CLI under test and the test take turns on it, as PGlite is opened by one process at a time.
 */
export async function withTestPglite<T>(dataDir: string, fn: (db: Database) => Promise<T>): Promise<T> {
  const handle = await openTestPglite(dataDir);
  installDatabase(handle);
  try {
    return await fn(handle.db);
  } finally {
    await handle.close();
  }
}

/**
 * Closes the file's own database, whatever a test left installed: a test that swapped in another
 * handle must not leave this one open while its database is dropped.
 */
async function closeTestDatabase(handle: DatabaseHandle): Promise<void> {
  await closeDb();
  await handle.close();
}

/** A database server that is down: a pool aimed at a loopback port on which nothing listens. */
export async function unreachableDatabase(): Promise<DatabaseHandle> {
  const port = await new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
  const pool = new pg.Pool({
    connectionString: `postgres://console@127.0.0.1:${port}/console`,
    connectionTimeoutMillis: 2000,
  });
  return { db: drizzle(pool, { schema }), close: () => pool.end() };
}

/**
 * Runs `fn` while the database itself refuses every new audit record (a CHECK (false) constraint,
 * NOT VALID so the rows already there pass), to prove that no change is kept without its record.
 */
export async function whileAuditInsertsFail<T>(db: Database, fn: () => Promise<T>): Promise<T> {
  await db.execute(sql`alter table audit_log add constraint audit_insert_refused_by_test check (false) not valid`);
  try {
    return await fn();
  } finally {
    await db.execute(sql`alter table audit_log drop constraint audit_insert_refused_by_test`);
  }
}
