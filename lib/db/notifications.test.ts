import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { rowsOf, type Database } from "@/lib/db";
import { setUpTestDatabase } from "@/lib/testing/database";
import { scaled } from "@/lib/testing/timeouts";

import { listen, notify } from "./notifications";

let db: Database;
let url: string | undefined;
let tearDown: () => Promise<void>;
beforeAll(async () => {
  ({ db, url, tearDown } = await setUpTestDatabase());
});
afterAll(async () => {
  await tearDown();
});

const CHANNEL = "notifications_test";
const poll = { timeout: scaled(2_000), interval: 20 };

/** The sessions of this database that listen on CHANNEL (their last statement was its LISTEN). */
const listeners = async () =>
  rowsOf<{ n: number }>(
    await db.execute(
      sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and query = ${`listen "${CHANNEL}"`}`,
    ),
  );

describe("database notifications", () => {
  it.skipIf(!process.env.DATABASE_URL)(
    "are heard from another session, again once a lost connection is opened anew, and not once stopped",
    async () => {
      let heard = 0;
      const listening = listen(CHANNEL, () => heard++);
      const other = new pg.Client({ connectionString: url });
      await other.connect();
      try {
        // Heard once on connecting: what was notified while it did not listen.
        await expect.poll(() => heard, poll).toBe(1);
        await db.transaction((tx) => notify(tx, CHANNEL));
        await expect.poll(() => heard, poll).toBe(2);

        // As a failover would: the server ends the listening session.
        await other.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query = $1",
          [`listen "${CHANNEL}"`],
        );
        await expect.poll(() => heard, poll).toBe(3);
        await other.query("select pg_notify($1, '')", [CHANNEL]);
        await expect.poll(() => heard, poll).toBe(4);

        await listening.stop();
        expect((await listeners())[0]?.n).toBe(0);
      } finally {
        await listening.stop();
        await other.end();
      }
    },
  );

  it("can be sent with nobody listening, and a listener stopped at once never listens (on PGlite, nothing does)", async () => {
    await notify(db, CHANNEL);
    let heard = 0;
    const listening = listen(CHANNEL, () => heard++);
    await listening.stop();
    expect(heard).toBe(0);
    if (process.env.DATABASE_URL) expect((await listeners())[0]?.n).toBe(0);
  });
});
