import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";

import { openDatabase } from "@/lib/db";

const migrationsFolder = path.resolve("lib/db/migrations");
const templatesFolder = path.resolve(".data/templates");

/**
 * Migrating a fresh PGlite costs seconds of CPU, so the first caller dumps one migrated database (dumpDataDir) to a
 * file in .data/templates named for its migrations and the month, and every later one, in any run or process, starts
 * as a copy of it (docs/performance.md, "Test databases"). Returns the file.
 */
export async function migratedPgliteTemplate(): Promise<string> {
  // The month too: the migrations make the partition of the month they run in (lib/webhooks/partitions.ts).
  // "lean": made by makeLean below, so that a template made before it is not taken for one.
  const file = path.join(
    templatesFolder,
    `pglite-lean-${migrationsDigest()}-${new Date().toISOString().slice(0, 7)}.tar`,
  );
  if (!fs.existsSync(file)) {
    const handle = await openDatabase({ kind: "pglite", dataDir: undefined });
    const client = (handle.db as unknown as { $client: PGlite }).$client;
    await makeLean(client);
    const dump = await client.dumpDataDir("none");
    await handle.close();
    fs.mkdirSync(templatesFolder, { recursive: true });
    // Written aside and renamed: processes that make it at the same time each put a whole file in place.
    const partial = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, file);
    // Those of other migrations or months are not used again (a day on, no run still reads them).
    for (const name of fs.readdirSync(templatesFolder)) {
      const other = path.join(templatesFolder, name);
      if (other !== file && Date.now() - fs.statSync(other).mtimeMs > 86_400_000) fs.rmSync(other, { force: true });
    }
  }
  return file;
}

/**
 * What every copy of the template would otherwise pay for when it opens: a checkpoint, so PostgreSQL replays no WAL,
 * and no template0 and template1, which nothing opens or copies (PGlite opens `postgres`, and nothing creates a
 * database there). Saved CPU: docs/performance.md, "Test databases".
 */
async function makeLean(client: PGlite): Promise<void> {
  await client.exec("update pg_database set datistemplate = false where datname in ('template0', 'template1')");
  // One statement each: DROP DATABASE cannot run in the transaction a multi-statement query is.
  await client.exec("drop database template0");
  await client.exec("drop database template1");
  await client.exec("checkpoint");
}

/**
 * Creates the embedded database in `dataDir` as a copy of the migrated template, for a process that
 * opens it afterwards (a console, a seed); a `dataDir` that already holds a database is left as it is.
 */
export async function createPgliteFromTemplate(dataDir: string): Promise<void> {
  if (fs.existsSync(path.join(dataDir, "PG_VERSION"))) return;
  const template = new Blob([fs.readFileSync(await migratedPgliteTemplate())]);
  const handle = await openDatabase({ kind: "pglite", dataDir, template });
  await handle.close();
}

/**
 * PostgreSQL's counterpart: a migrated database on `adminUrl`'s server, named for the migrations and the month and
 * made once per server, copied with `create database x template <it>` (docs/performance.md, "Test databases").
 * Migrated under another name and renamed when complete, so a run cut short leaves none half-migrated. Its name.
 */
export async function migratedPostgresTemplate(adminUrl: string): Promise<string> {
  const name = `console_template_${migrationsDigest()}_${new Date().toISOString().slice(0, 7).replace("-", "_")}`;
  const exists = async () =>
    (await withAdminClient(adminUrl, (c) => c.query("select 1 from pg_database where datname = $1", [name])))
      .rowCount === 1;
  if (await exists()) return name;
  const building = `${name}_${crypto.randomBytes(4).toString("hex")}`;
  await withAdminClient(adminUrl, (c) => c.query(`create database ${building}`));
  try {
    const handle = await openDatabase({ kind: "postgres", url: databaseUrl(adminUrl, building), poolSize: 1 });
    await handle.close();
    // Waits (up to 5 s) for the closed connection's server process to end, as CREATE DATABASE … TEMPLATE does.
    await withAdminClient(adminUrl, (c) => c.query(`alter database ${building} rename to ${name}`));
  } catch (error) {
    await withAdminClient(adminUrl, (c) => c.query(`drop database if exists ${building} with (force)`));
    if (!(await exists())) throw error; // else another process made it first
  }
  return name;
}

/** `adminUrl` with another database. */
export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** One connection to the server of `url` for the time of `fn`. */
export async function withAdminClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function migrationsDigest(): string {
  const hash = crypto.createHash("sha256");
  for (const name of fs.readdirSync(migrationsFolder, { recursive: true, encoding: "utf8" }).sort()) {
    const full = path.join(migrationsFolder, name);
    if (fs.statSync(full).isFile()) hash.update(name).update(fs.readFileSync(full));
  }
  return hash.digest("hex").slice(0, 16);
}
