import crypto from "node:crypto";
import pg from "pg";
import { closeDb, openDatabase, installDatabase, type Database, type DatabaseHandle } from "./index";

/**
 * Gives a test file a fresh, migrated database of the same kind the suite runs on:
 * a new PostgreSQL database when DATABASE_URL is set, else an in-memory PGlite.
 */
export async function setUpTestDatabase(): Promise<{ db: Database; handle: DatabaseHandle; url?: string; tearDown: () => Promise<void> }> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const handle = await openDatabase({ kind: "pglite", dataDir: undefined });
    installDatabase(handle);
    return { db: handle.db, handle, tearDown: closeDb };
  }
  const name = `console_test_${crypto.randomBytes(6).toString("hex")}`;
  await withAdminClient(adminUrl, (c) => c.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ kind: "postgres", url: url.toString() });
  installDatabase(handle);
  return {
    db: handle.db,
    handle,
    url: url.toString(),
    tearDown: async () => {
      await closeDb();
      await withAdminClient(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}

async function withAdminClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
