import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

import { sql } from "drizzle-orm";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { setUpTestDatabase } from "@/lib/testing/database";

import { isDatabaseReachable, rowsOf, type Database } from "./index";
import type * as schema from "./schema";

const migrationsFolder = path.resolve("lib/db/migrations");

let db: Database;
let url: string | undefined;
let tearDown: () => Promise<void>;

beforeAll(async () => {
  ({ db, url, tearDown } = await setUpTestDatabase());
});
afterAll(() => tearDown());

const rows = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(query));

describe(`migrations on ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"}`, () => {
  it("create every table of the schema", async () => {
    // Partitions (webhook_events_YYYY_MM) are the parts of a table, not tables of the schema.
    const tables = await rows<{ table_name: string }>(
      sql`select c.relname as table_name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by 1`,
    );
    expect(tables.map((t) => t.table_name)).toEqual([
      "alert_evaluations",
      "alert_notice_targets",
      "alert_notices",
      "alert_thresholds",
      "alerts",
      "api_token_addresses",
      "api_token_guesses",
      "api_tokens",
      "audit_log",
      "connection_secrets",
      "connections",
      "console_users",
      "data_point_watches",
      "end_user_erasures",
      "forward_attempts",
      "forward_deliveries",
      "forward_destinations",
      "forward_replays",
      "login_attempts",
      "webhook_events",
      "webhook_rejections",
    ]);
  });

  it("partition webhook_events by month, with this month's partition made", async () => {
    const partitions = await rows<{ name: string }>(
      sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'webhook_events'::regclass`,
    );
    const now = new Date();
    expect(partitions.map((p) => p.name)).toContain(
      `webhook_events_${now.getUTCFullYear()}_${String(now.getUTCMonth() + 1).padStart(2, "0")}`,
    );
  });

  it("record each migration of the journal exactly once, and a second run records none again", async () => {
    // Drizzle records a migration as the SHA-256 of its file and the journal's `when` (readMigrationFiles).
    const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as {
      entries: Array<{ tag: string; when: number }>;
    };
    const expected = journal.entries
      .map(({ tag, when }) => ({
        hash: crypto
          .createHash("sha256")
          .update(fs.readFileSync(path.join(migrationsFolder, `${tag}.sql`)))
          .digest("hex"),
        when: String(when),
      }))
      .sort((a, b) => a.when.localeCompare(b.when));
    const recorded = () =>
      rows<{ hash: string; when: string }>(
        sql`select hash, created_at::text as when from drizzle.__drizzle_migrations order by created_at, id`,
      );
    expect(expected.length).toBeGreaterThan(0);
    expect(await recorded()).toEqual(expected);

    await (process.env.DATABASE_URL
      ? migratePg(db as NodePgDatabase<typeof schema>, { migrationsFolder })
      : migratePglite(db as PgliteDatabase<typeof schema>, { migrationsFolder }));
    expect(await recorded()).toEqual(expected);
  });

  it("enforce case-insensitive unique emails", async () => {
    await db.execute(
      sql`insert into console_users (email, name, role, password_hash) values ('A@x.io', 'A', 'admin', 'h')`,
    );
    await expect(
      db.execute(
        sql`insert into console_users (email, name, role, password_hash) values ('a@X.io', 'B', 'admin', 'h')`,
      ),
    ).rejects.toThrow();
  });

  it("build the prefix index on user ids with text_pattern_ops", async () => {
    const defs = await rows<{ indexdef: string }>(
      sql`select indexdef from pg_indexes where indexname = 'webhook_events_user_prefix_idx'`,
    );
    expect(defs[0]?.indexdef).toContain("text_pattern_ops");
  });

  it("answer the health probe", async () => {
    expect(await isDatabaseReachable()).toBe(true);
  });
});

describe("the PostgreSQL pool", () => {
  it.skipIf(!process.env.DATABASE_URL)("outlives an idle connection the server drops", async () => {
    const pid = (await rows<{ pid: number }>(sql`select pg_backend_pid() as pid`))[0]?.pid;
    expect(pid).toBeGreaterThan(0);
    // As a server restart or failover would: another session ends the pool's idle connection.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const { rows: ended } = await admin.query("select pg_terminate_backend($1) as ok", [pid]);
      expect(ended[0]?.ok).toBe(true);
    } finally {
      await admin.end();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const again = await rows<{ pid: number }>(sql`select pg_backend_pid() as pid`);
    expect(again[0]?.pid).not.toBe(pid);
  });
});
