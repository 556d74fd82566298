import crypto from "node:crypto";

import { afterAll, expect, it } from "vitest";

import { openDatabase, type DatabaseHandle } from "@/lib/db";
import { webhookEvents } from "@/lib/db/schema";
import { databaseUrl, migratedPostgresTemplate, withAdminClient } from "@/lib/testing/templates";
import { ensureEventPartitions } from "@/lib/webhooks/partitions";

import { bulkLoad, insertBulkConnections } from "./bulk-load";

const adminUrl = process.env.DATABASE_URL;
const cleanUps: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanUp of cleanUps.reverse()) await cleanUp();
});

// PostgreSQL's statement timeout (the pool's, lib/db) has no counterpart on PGlite.
it.skipIf(!adminUrl)(
  "loads past the pool's statement timeout, which is for a runaway read, not a bulk load",
  async () => {
    const name = `bulk_load_test_${crypto.randomBytes(4).toString("hex")}`;
    await withAdminClient(adminUrl!, async (c) =>
      c.query(`create database ${name} template ${await migratedPostgresTemplate(adminUrl!)}`),
    );
    cleanUps.push(() => withAdminClient(adminUrl!, (c) => c.query(`drop database if exists ${name} with (force)`)));
    const url = databaseUrl(adminUrl!, name);
    // Set up without a timeout: the connections, and the months' partitions the load then only finds.
    const setUp = await openDatabase({ kind: "postgres", url, statementTimeoutMs: 0 });
    cleanUps.push(() => setUp.close());
    const connections = await insertBulkConnections(setUp.db, 2);
    const now = new Date();
    await ensureEventPartitions(new Date(now.getTime() - 30 * 86_400_000), now, setUp.db);

    // 100 ms: each of the load's 30,000-row statements takes several times that.
    const handle: DatabaseHandle = await openDatabase({ kind: "postgres", url, statementTimeoutMs: 100 });
    cleanUps.push(() => handle.close());
    await bulkLoad(handle.db, { connections, events: 30_000, rejections: 600, days: 30, now });
    expect(await setUp.db.$count(webhookEvents)).toBe(30_000);
  },
);
