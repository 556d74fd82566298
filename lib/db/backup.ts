import "server-only";

import fs from "node:fs";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";

import { errorMessage } from "@/lib/error-message";

import { lockDataDir, openDatabase, rowsOf, schema, type Database } from "./index";

/**
 * Backup and restore of the embedded database (npm run backup / restore): a backup is PGlite's own
 * dumpDataDir, a gzip tarball of the data directory. Both hold the data directory's lock for their whole
 * run, so neither runs beside a console; PostgreSQL has pg_dump and pg_restore instead.
 */

/** Exact row counts of the console's tables (a partitioned table once, with its partitions' rows). */
export type TableCounts = { tables: number; rows: number; byTable: Record<string, number> };

/** A refusal or a failure of backup or restore, worded for the operator. */
export class BackupError extends Error {
  override name = "BackupError";
}

const GZIP_MAGIC = [0x1f, 0x8b];

function holdsDatabase(dataDir: string): boolean {
  return fs.existsSync(path.join(dataDir, "PG_VERSION"));
}

async function countTables(db: Database): Promise<TableCounts> {
  const tables = rowsOf<{ name: string }>(
    await db.execute(sql`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by c.relname`),
  );
  const byTable: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from ${sql.identifier(name)}`));
    byTable[name] = row!.n;
  }
  return { tables: tables.length, rows: Object.values(byTable).reduce((a, b) => a + b, 0), byTable };
}

/** Writes `bytes` to `file.tmp`, flushed to disk, then renames it: `file` is whole or absent, never half-written. */
async function writeWhole(file: string, bytes: Uint8Array): Promise<void> {
  const temporary = `${file}.tmp`;
  try {
    const handle = await fs.promises.open(temporary, "w", 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temporary, file);
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Dumps the database in `dataDir` to `out` as it is, without migrating it (a backup changes nothing).
 * Refuses an existing `out` unless `force`, and a data directory a console holds (DatabaseBusyError).
 */
export async function backupDataDir(
  dataDir: string,
  out: string,
  { force }: { force: boolean },
): Promise<{ bytes: number; counts: TableCounts }> {
  if (!holdsDatabase(dataDir))
    throw new BackupError(`There is no embedded database in ${dataDir} to back up (check CONSOLE_DATA_DIR).`);
  if (!force && fs.existsSync(out))
    throw new BackupError(`${out} already exists: give another --out, or add --force to replace it.`);
  const release = lockDataDir(dataDir);
  let dump: Blob;
  let counts: TableCounts;
  try {
    const client = await PGlite.create(dataDir);
    try {
      counts = await countTables(drizzle(client, { schema }) as unknown as Database);
      dump = await client.dumpDataDir("gzip");
    } finally {
      await client.close();
    }
  } finally {
    release();
  }
  const bytes = new Uint8Array(await dump.arrayBuffer());
  await writeWhole(out, bytes);
  return { bytes: bytes.length, counts };
}

function readFile(file: string) {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    throw new BackupError(`Cannot read ${file}: ${errorMessage(error)}`);
  }
}

/** The backup file, refused with a clear error when it cannot be one (missing, empty, not gzip). */
function readBackup(file: string): Blob {
  const bytes = readFile(file);
  if (bytes.length < 2 || bytes[0] !== GZIP_MAGIC[0] || bytes[1] !== GZIP_MAGIC[1])
    throw new BackupError(`${file} is not a backup of the embedded database (not a gzip file).`);
  return new Blob([bytes]);
}

/**
 * Restores `file` into `dataDir` and migrates it (a backup of an older release is brought up to date).
 * The backup is unpacked and migrated in a folder beside the data directory first, so a bad file leaves
 * the data directory as it was; only then is it moved into place. A data directory that holds anything is
 * refused unless `force`, which moves it aside (returned as `movedAside`) rather than deleting it.
 */
export async function restoreDataDir(
  dataDir: string,
  file: string,
  { force }: { force: boolean },
): Promise<{ counts: TableCounts; movedAside?: string }> {
  const backup = readBackup(file);
  const existed = fs.existsSync(dataDir);
  const release = lockDataDir(dataDir);
  const parent = path.dirname(dataDir);
  let staging: string | undefined;
  try {
    staging = fs.mkdtempSync(path.join(parent, "pglite.restoring-"));
    const occupied = fs.readdirSync(dataDir).length > 0;
    if (occupied && !force)
      throw new BackupError(
        `${dataDir} already holds a database, which a restore would replace. To replace it, run again with ` +
          "--force: it is moved aside first (beside it, as pglite.before-restore-<time>).",
      );
    const staged = path.join(staging, "pglite");
    const counts = await loadAndMigrate(staged, backup, file);
    let movedAside: string | undefined;
    if (occupied) {
      movedAside = path.join(parent, `pglite.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`);
      fs.renameSync(dataDir, movedAside);
    } else fs.rmdirSync(dataDir);
    fs.renameSync(staged, dataDir);
    return { counts, movedAside };
  } catch (error) {
    // The lock made the data directory; one that did not exist before is not left behind, empty.
    if (!existed && fs.existsSync(dataDir) && fs.readdirSync(dataDir).length === 0) fs.rmdirSync(dataDir);
    throw error;
  } finally {
    if (staging) fs.rmSync(staging, { recursive: true, force: true });
    release();
  }
}

/** Unpacks the backup into `staged` (a new folder), migrates it as a console would, and counts its rows. */
async function loadAndMigrate(staged: string, backup: Blob, file: string): Promise<TableCounts> {
  try {
    const client = await PGlite.create(staged, { loadDataDir: backup });
    await client.close();
  } catch (error) {
    throw new BackupError(`${file} is not a backup of the embedded database: ${errorMessage(error)}`);
  }
  if (!holdsDatabase(staged))
    throw new BackupError(`${file} is not a backup of the embedded database (no PG_VERSION).`);
  const handle = await openDatabase({ kind: "pglite", dataDir: staged });
  try {
    return await countTables(handle.db);
  } finally {
    await handle.close();
  }
}
