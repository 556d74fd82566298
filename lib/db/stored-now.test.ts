import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { rowsOf, type Database } from "@/lib/db";
import { setUpTestDatabase } from "@/lib/testing/database";

import { storedNow } from "./stored-now";

let db: Database;
let tearDown: () => Promise<void>;
beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
  await db.execute(sql`create table stored_now_test (at timestamptz(3) not null)`);
});
afterAll(async () => {
  await db.execute(sql`drop table stored_now_test`);
  await tearDown();
});

describe("storedNow", () => {
  it("finds a millisecond time written from now() due at that very instant, though now() rounds up into it", async () => {
    // Within a transaction now() stands still. On PostgreSQL (PGlite's clock ticks in whole milliseconds) half
    // the instants round up to a millisecond after themselves: `at <= now()` misses every other row, storedNow none.
    for (let round = 0; round < 20; round++) {
      const [due] = await db.transaction(async (tx) => {
        await tx.execute(sql`delete from stored_now_test`);
        await tx.execute(sql`insert into stored_now_test values (now())`);
        return rowsOf<{ n: number }>(
          await tx.execute(sql`select count(*)::int as n from stored_now_test where at <= ${storedNow}`),
        );
      });
      expect(due, `round ${round}`).toEqual({ n: 1 });
    }
  });
});
