import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { sql } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";

import { openDatabase, rowsOf, type Database } from "@/lib/db";
import { consoleUsers } from "@/lib/db/schema";

import { openTestPglite } from "./database";
import { createPgliteFromTemplate, databaseUrl, migratedPostgresTemplate, withAdminClient } from "./templates";

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "templates-test-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const migrationFiles = fs.readdirSync(path.resolve("lib/db/migrations")).filter((name) => name.endsWith(".sql")).length;
async function appliedMigrations(db: Database): Promise<number> {
  const [applied] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`),
  );
  return applied!.n;
}

// Each database's own: a run on PostgreSQL checks its template, a run on PGlite the embedded one's.
const adminUrl = process.env.DATABASE_URL;

it.skipIf(Boolean(adminUrl))(
  "PGlite: creates a database with every migration applied, and leaves one that exists as it is",
  async () => {
    const dataDir = path.join(folder, "pglite");
    await createPgliteFromTemplate(dataDir);

    const handle = await openDatabase({ kind: "pglite", dataDir });
    expect(await appliedMigrations(handle.db)).toBe(migrationFiles);
    await handle.db.insert(consoleUsers).values({ email: "kept@example.test", name: "Kept", role: "support" });
    await handle.close();

    await createPgliteFromTemplate(dataDir);
    const again = await openDatabase({ kind: "pglite", dataDir });
    expect(await again.db.select({ email: consoleUsers.email }).from(consoleUsers)).toEqual([
      { email: "kept@example.test" },
    ]);
    await again.close();
  },
);

it.skipIf(Boolean(adminUrl))(
  "PGlite: the template holds only the database PGlite opens, postgres (template0 and template1 were a third of every copy)",
  async () => {
    const handle = await openTestPglite(undefined);
    try {
      const databases = rowsOf<{ datname: string }>(
        await handle.db.execute(sql`select datname from pg_database order by 1`),
      );
      expect(databases).toEqual([{ datname: "postgres" }]);
    } finally {
      await handle.close();
    }
  },
);

it.skipIf(!adminUrl)(
  "PostgreSQL: one template, made once, with every migration applied, which a database is created from",
  async () => {
    const name = await migratedPostgresTemplate(adminUrl!);
    expect(await migratedPostgresTemplate(adminUrl!)).toBe(name);
    // No database left half-made under a building name (`<name>_<random>`).
    const made = await withAdminClient(adminUrl!, (c) =>
      c.query("select datname from pg_database where starts_with(datname, $1) order by 1", [name]),
    );
    expect(made.rows).toEqual([{ datname: name }]);

    const copy = `templates_test_${crypto.randomBytes(4).toString("hex")}`;
    await withAdminClient(adminUrl!, (c) => c.query(`create database ${copy} template ${name}`));
    const handle = await openDatabase({ kind: "postgres", url: databaseUrl(adminUrl!, copy) });
    try {
      expect(await appliedMigrations(handle.db)).toBe(migrationFiles);
    } finally {
      await handle.close();
      await withAdminClient(adminUrl!, (c) => c.query(`drop database ${copy} with (force)`));
    }
  },
);
