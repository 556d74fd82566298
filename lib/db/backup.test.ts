import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, expect, it } from "vitest";

import { scaled } from "@/lib/testing/timeouts";

import { restoreDataDir } from "./backup";
import { openDatabase, rowsOf } from "./index";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "backup-older-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

type Journal = { entries: Array<{ tag: string }> };

/** lib/db/migrations as the release before this one had it: without its last migration. Returns the folder. */
function previousRelease(): { folder: string; last: string; count: number } {
  const folder = path.join(root, "migrations");
  fs.cpSync(path.resolve("lib/db/migrations"), folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as Journal;
  const last = journal.entries.pop()!;
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return { folder, last: last.tag, count: journal.entries.length };
}

const appliedMigrations = async (db: { execute: (query: ReturnType<typeof sql>) => Promise<unknown> }) =>
  rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`))[0]!.n;

// Its limit: migrating a database from nothing costs tens of seconds of CPU on a loaded machine.
it(
  "restore brings a backup of an older release up to date: it applies the migrations the backup lacks",
  async () => {
    const older = previousRelease();
    const client = await PGlite.create();
    const oldDb = drizzle(client);
    await migrate(oldDb, { migrationsFolder: older.folder });
    expect(await appliedMigrations(oldDb)).toBe(older.count);
    const file = path.join(root, "older.tgz");
    fs.writeFileSync(file, new Uint8Array(await (await client.dumpDataDir("gzip")).arrayBuffer()));
    await client.close();

    const dataDir = path.join(root, "data", "pglite");
    const { movedAside } = await restoreDataDir(dataDir, file, { force: false });
    expect(movedAside).toBeUndefined();
    const handle = await openDatabase({ kind: "pglite", dataDir });
    try {
      // The newest one recorded is this release's last migration, by the hash drizzle keeps of its SQL.
      const [newest] = rowsOf<{ hash: string }>(
        await handle.db.execute(sql`select hash from drizzle.__drizzle_migrations order by created_at desc limit 1`),
      );
      const lastSql = fs.readFileSync(path.resolve("lib/db/migrations", `${older.last}.sql`), "utf8");
      expect(newest?.hash).toBe(createHash("sha256").update(lastSql).digest("hex"));
      expect(await appliedMigrations(handle.db)).toBe(older.count + 1);
    } finally {
      await handle.close();
    }
  },
  scaled(120_000),
);
