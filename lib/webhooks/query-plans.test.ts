/**
 * Every combination (up to three) of the log's filters, on a page or past a cursor, reads about one page of rows from
 * its indexes, never walking an index discarding rows: a 0-match value makes such a walk read the whole table.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { rowsOf, type Database } from "@/lib/db";
import { webhookEvents } from "@/lib/db/schema";
import { setUpTestDatabase } from "@/lib/testing/database";
import { scaled } from "@/lib/testing/timeouts";
import { bulkLoad, insertBulkConnections } from "@/tooling/bulk-load";

import { ALL_TYPES } from "./constants";
import { encodeCursor } from "./cursor";
import { cursorBound } from "./paging";
import { eventFiltersSchema } from "./schemas";
import { eventPageQuery } from "./webhooks";

const EVENTS = 40_000;
/** Rows a page may read from webhook_events across its plan (two limited halves, a little waste). */
const MOST_ROWS_READ = 2_000;
const NOW = new Date("2026-06-01T00:00:00Z");
const day = (daysAgo: number) => new Date(NOW.getTime() - daysAgo * 86_400_000).toISOString();

let db: Database;
let tearDown: () => Promise<void>;
let smallConnection: string;

beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
  const connections = await insertBulkConnections(db, 6);
  smallConnection = connections.at(-1)!.id;
  await bulkLoad(db, { connections, events: EVENTS, rejections: 0, now: NOW });
  await db.execute(sql`vacuum analyze webhook_events`);
}, scaled(120_000));
afterAll(() => tearDown());

type FilterInput = Record<string, string>;

/** Each filter of the log, with the values it is tried with. */
function dimensions(): Record<string, FilterInput[]> {
  return {
    connection: [{ connectionId: smallConnection }],
    type: [{ type: ALL_TYPES }, { type: "authenticator.deleted" }, { type: "no.such.type" }],
    method: [{ verificationMethod: "WHATSAPP" }, { verificationMethod: "NO_SUCH_METHOD" }],
    platform: [{ devicePlatform: "IOS" }, { devicePlatform: "NO_SUCH_PLATFORM" }],
    user: [{ userId: "usr_nobody" }, { userId: "usr_1999", userIdMatch: "prefix" }],
    userAuthenticator: [{ userAuthenticatorId: "ua_nobody" }],
    received: [{ received: "24h" }, { receivedFrom: day(40), receivedTo: day(39) }],
    expiry: [
      { expiresFrom: day(60), expiresTo: day(59) },
      { expiresFrom: day(60), expiresTo: day(30) },
    ],
    test: [{ test: "only" }, { test: "exclude" }],
    delay: [{ delay: "gt24h" }],
    page: [
      { cursor: encodeCursor({ at: day(10), id: Number.MAX_SAFE_INTEGER, direction: "older" }) },
      { cursor: encodeCursor({ at: day(50), id: 1, direction: "newer" }) },
    ],
  };
}

/** Every combination of at most `size` filters, each with every value it is tried with. */
function combinations(size: number): FilterInput[] {
  const all = Object.values(dimensions());
  const result: FilterInput[] = [{}];
  const extend = (start: number, chosen: FilterInput, left: number) => {
    for (let i = start; i < all.length; i++) {
      for (const value of all[i]!) {
        const next = { ...chosen, ...value };
        result.push(next);
        if (left > 1) extend(i + 1, next, left - 1);
      }
    }
  };
  extend(0, {}, size);
  return result;
}

type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
};

async function explain(input: FilterInput): Promise<PlanNode> {
  const filters = eventFiltersSchema.parse(input);
  const { after, direction } = cursorBound(filters.cursor, webhookEvents.firstReceivedAt, webhookEvents.id);
  const query = eventPageQuery(db, filters, after, direction);
  const rows = rowsOf<Record<string, unknown>>(await db.execute(sql`explain (analyze, format json) ${query}`));
  const plan = Object.values(rows[0]!)[0];
  return ((typeof plan === "string" ? JSON.parse(plan) : plan) as Array<{ Plan: PlanNode }>)[0]!.Plan;
}

describe("the log's query plans", () => {
  it(
    "read about a page of rows for every combination of filters, never a walk that discards rows",
    async () => {
      const walks: string[] = [];
      const cases = combinations(3);
      for (const input of cases) {
        const plan = await explain(input);
        const { rows, scans } = total(plan);
        // A sequential scan counts by the rows it read (of an empty partition, none), like any other.
        if (rows > MOST_ROWS_READ) {
          const { cursor, ...shown } = input;
          walks.push(
            `${JSON.stringify({ ...shown, ...(cursor ? { page: "past a cursor" } : {}) })}: ${rows} rows read by ${scans.join(", ")}`,
          );
        }
      }
      expect(cases.length).toBeGreaterThan(400);
      expect(walks).toEqual([]);
    },
    scaled(300_000),
  );
});

/** webhook_events, or one of its monthly partitions. */
const EVENT_TABLE = /^webhook_events(_\d{4}_\d{2})?$/;

/**
 * Rows the plan read from webhook_events' partitions: what their scans returned plus what their filters
 * discarded (a bitmap's index entries are not rows read: combining two indexes that way is no walk).
 */
function total(node: PlanNode): { rows: number; scans: string[] } {
  let rows = 0;
  const scans: string[] = [];
  const visit = (n: PlanNode) => {
    const times = n["Actual Loops"] ?? 1;
    if (n["Node Type"] === "Bitmap Index Scan" && n["Index Name"]?.startsWith("webhook_events"))
      scans.push(`Bitmap Index Scan on ${n["Index Name"]}`);
    if (EVENT_TABLE.test(n["Relation Name"] ?? "")) {
      rows += ((n["Actual Rows"] ?? 0) + (n["Rows Removed by Filter"] ?? 0)) * times;
      if (n["Node Type"] !== "Bitmap Heap Scan")
        scans.push(`${n["Node Type"]}${n["Index Name"] ? ` on ${n["Index Name"]}` : ""}`);
    }
    for (const child of n.Plans ?? []) visit(child);
  };
  visit(node);
  return { rows, scans };
}
