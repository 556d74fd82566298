// A rolling upgrade (docs/operations.md, "Upgrading while serving"): an instance whose code is older than the
// database's schema keeps serving; instances that start together migrate once; a startup migration stuck
// behind another session's lock gives up instead of holding every query on its table behind it.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";

import { openTestPglite, setUpTestDatabase } from "@/lib/testing/database";
import { databaseUrl, withAdminClient } from "@/lib/testing/templates";

import { MigrationLockTimeoutError, openDatabase, rowsOf, schema, type Database, type DatabaseHandle } from "./index";

const migrationsFolder = path.resolve("lib/db/migrations");
const journal = () =>
  JSON.parse(fs.readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as {
    entries: Array<{ idx: number; version: string; when: number; tag: string; breakpoints: boolean }>;
  };
const adminUrl = process.env.DATABASE_URL;

const folders: string[] = [];
const handles: DatabaseHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

const recorded = async (db: Database) =>
  rowsOf<{ hash: string }>(await db.execute(sql`select hash from drizzle.__drizzle_migrations order by id`));

/**
 * What the next release's migration does while this code still serves: it only expands (a nullable column, a new
 * table) and records itself in drizzle's table with a later `created_at` than any migration this code knows.
 */
async function applyNewerRelease(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`alter table console_users add column nickname text`);
    await tx.execute(
      sql`create table console_user_notes (id uuid primary key default gen_random_uuid(), body text not null)`,
    );
    await tx.execute(
      sql`insert into drizzle.__drizzle_migrations (hash, created_at)
          select 'the newer release', max(created_at) + 86400000 from drizzle.__drizzle_migrations`,
    );
  });
}

/** Reads and writes through the current code's schema on a database a newer release has expanded. */
async function expectServing(db: Database, before: Array<{ hash: string }>): Promise<void> {
  // Nothing applied again, and the newer release's record kept.
  expect(await recorded(db)).toEqual(before);
  const email = `older-${crypto.randomBytes(4).toString("hex")}@example.test`;
  const [user] = await db
    .insert(schema.consoleUsers)
    .values({ email, name: "Older", role: "admin", passwordHash: "h" })
    .returning();
  // The newer code sets its column; the older code's update leaves it alone.
  await db.execute(sql`update console_users set nickname = 'new' where id = ${user!.id}`);
  await db.update(schema.consoleUsers).set({ name: "Older, renamed" }).where(eq(schema.consoleUsers.id, user!.id));
  const [read] = await db.select().from(schema.consoleUsers).where(eq(schema.consoleUsers.email, email));
  expect(read?.name).toBe("Older, renamed");
  const nickname = rowsOf<{ nickname: string | null }>(
    await db.execute(sql`select nickname from console_users where id = ${user!.id}`),
  );
  expect(nickname).toEqual([{ nickname: "new" }]);
}

describe.skipIf(Boolean(adminUrl))("older code on a newer schema, on PGlite", () => {
  it("opens, migrates nothing and reads and writes", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "upgrade-"));
    folders.push(dataDir);
    const first = await openTestPglite(path.join(dataDir, "pglite"));
    await applyNewerRelease(first.db);
    const before = await recorded(first.db);
    await first.close();

    const older = await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
    handles.push(older);
    await expectServing(older.db, before);
  });
});

describe.skipIf(!adminUrl)("on PostgreSQL", () => {
  // Each test on a database of its own: the newer release's record would hide the lock test's migration.
  let tearDowns: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const tearDown of tearDowns) await tearDown();
    tearDowns = [];
  });
  const freshCopy = async () => {
    const { db, url, tearDown } = await setUpTestDatabase();
    tearDowns.push(tearDown);
    return { db, url: url! };
  };

  it("older code on a newer schema opens, migrates nothing and reads and writes", async () => {
    const { db, url } = await freshCopy();
    await applyNewerRelease(db);
    const before = await recorded(db);
    const older = await openDatabase({ kind: "postgres", url });
    handles.push(older);
    await expectServing(older.db, before);
  });

  it("two instances starting at once on a fresh database both open, and each migration is applied once", async () => {
    const name = `console_test_${crypto.randomBytes(6).toString("hex")}`;
    await withAdminClient(adminUrl!, (c) => c.query(`create database ${name}`));
    try {
      const fresh = databaseUrl(adminUrl!, name);
      const opened = await Promise.all([
        openDatabase({ kind: "postgres", url: fresh }),
        openDatabase({ kind: "postgres", url: fresh }),
      ]);
      handles.push(...opened);
      const hashes = (await recorded(opened[0]!.db)).map((r) => r.hash);
      expect(hashes).toHaveLength(journal().entries.length);
      expect(new Set(hashes).size).toBe(hashes.length);
      expect(await recorded(opened[1]!.db)).toHaveLength(hashes.length);
    } finally {
      for (const handle of handles.splice(0)) await handle.close();
      await withAdminClient(adminUrl!, (c) => c.query(`drop database if exists ${name} with (force)`));
    }
  });

  it("a startup migration waiting on another session's lock gives up after its lock timeout, then applies", async () => {
    // This code's migrations and one more that alters console_users, as the next release would ship.
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "migrations-"));
    folders.push(folder);
    fs.cpSync(migrationsFolder, folder, { recursive: true });
    const entries = journal().entries;
    const last = entries.at(-1)!;
    const next = { ...last, idx: last.idx + 1, when: last.when + 1000, tag: "0015_lock_test" };
    fs.writeFileSync(path.join(folder, `${next.tag}.sql`), `ALTER TABLE "console_users" ADD COLUMN "lock_test" text;`);
    fs.writeFileSync(
      path.join(folder, "meta/_journal.json"),
      JSON.stringify({ ...journal(), entries: [...entries, next] }),
    );

    const { db, url } = await freshCopy();
    // A long read holds console_users (ACCESS SHARE); the ALTER needs ACCESS EXCLUSIVE.
    const reader = new pg.Client({ connectionString: url });
    await reader.connect();
    try {
      await reader.query("begin");
      await reader.query("select count(*) from console_users");
      const started = Date.now();
      const target = { kind: "postgres", url, migrationsFolder: folder, migrationLockTimeoutMs: 300 } as const;
      await expect(openDatabase(target)).rejects.toThrow(MigrationLockTimeoutError);
      expect(Date.now() - started).toBeLessThan(5_000);
      // Rolled back: the column is not there and nothing is recorded, and the table answers at once.
      const columns = await db.execute(
        sql`select 1 from information_schema.columns where table_name = 'console_users' and column_name = 'lock_test'`,
      );
      expect(rowsOf(columns)).toEqual([]);
      expect((await recorded(db)).length).toBe(entries.length);

      await reader.query("commit");
      const upgraded = await openDatabase(target);
      handles.push(upgraded);
      expect((await recorded(upgraded.db)).length).toBe(entries.length + 1);
    } finally {
      await reader.end();
    }
  });
});
