import v8 from "node:v8";
import vm from "node:vm";

import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { scaled } from "@/lib/testing/timeouts";
import { TENANT_ID } from "@/lib/testing/webhooks";
import { inUntimedTransaction } from "@/tooling/bulk-load";

import { csvCell, EVENT_EXPORT_COLUMNS, exportStream, isoTimestamp } from "./export";
import { iterateWebhookEvents } from "./export-rows";
import { at, filters, setUpSeededWebhookLog } from "./test-helpers";
import { listWebhookEvents } from "./webhooks";

const log = setUpSeededWebhookLog();

/** Every row iterateWebhookEvents yields. */
async function exported(input: Record<string, string>, role: "admin" | "support", pageSize: number) {
  const rows = [];
  for await (const row of iterateWebhookEvents(filters(input), role, pageSize)) rows.push(row);
  return rows;
}

/** Every item of the log's pages, read with the API's cursors. */
async function paged(input: Record<string, string>, role: "admin" | "support") {
  const items = [];
  for (let cursor: string | null | undefined = input.cursor; ;) {
    const page = await listWebhookEvents(filters({ ...input, limit: "2", ...(cursor ? { cursor } : {}) }), role);
    // The export is the events as stored; their forwarding, which the log's rows show beside them, is not in it.
    items.push(
      ...page.items.map((item) => {
        const event: Partial<typeof item> = { ...item };
        delete event.forwarding;
        return event;
      }),
    );
    if (!page.nextCursor) return items;
    cursor = page.nextCursor;
  }
}

describe("export iteration", () => {
  it("yields the log's items, field for field and in its order and key order, masked for support", async () => {
    const cases: Record<string, string>[] = [
      {},
      { connectionId: log.acme },
      { userId: "usr_al", userIdMatch: "prefix" },
      { expiresFrom: at(-30).toISOString(), expiresTo: at(10).toISOString() },
    ];
    for (const input of cases) {
      for (const role of ["admin", "support"] as const) {
        for (const pageSize of [1, 2, 1000]) {
          const rows = await exported(input, role, pageSize);
          expect(rows.length).toBeGreaterThan(0);
          // JSON text: the NDJSON line, so key order counts too.
          expect(rows.map((r) => JSON.stringify(r))).toEqual((await paged(input, role)).map((r) => JSON.stringify(r)));
        }
      }
    }
    const support = await exported({ connectionId: log.acme }, "support", 1000);
    expect(support.find((r) => r.userId === "usr_alice" && r.email)?.email).toBe("a•••@example.com");
    expect(support.find((r) => r.phoneNumber)?.phoneNumber).toBe("+•••••••1234");
  });

  it("starts after a link's cursor, as the log's next page does", async () => {
    const first = await listWebhookEvents(filters({ limit: "2" }), "admin");
    const rows = await exported({ cursor: first.nextCursor! }, "admin", 1);
    expect(rows.map((r) => r.id)).toEqual((await paged({ cursor: first.nextCursor! }, "admin")).map((r) => r.id));
    expect(rows.map((r) => r.id)).not.toContain(first.items[0]!.id);
  });

  it("misses no event when a page ends among events received at the same time (ties are read by id)", async () => {
    await log.db.execute(sql`
      insert into webhook_events (connection_id, event_id, type, tenant_id, envelope_time, first_received_at, last_received_at, signature_status, raw_body)
      select ${log.acme}::uuid, 'same-ms-' || g, 'same-ms', ${TENANT_ID}, now(), '2025-07-01 00:00:00.123+00', now(), 'unsigned', '{}'
      from generate_series(1, 10) g`);
    try {
      for (const pageSize of [1, 3, 1000]) {
        const rows = await exported({ type: "same-ms" }, "admin", pageSize);
        expect(rows.map((r) => r.eventId)).toEqual(Array.from({ length: 10 }, (_, i) => `same-ms-${10 - i}`));
        expect(new Set(rows.map((r) => r.firstReceivedAt))).toEqual(new Set(["2025-07-01T00:00:00.123Z"]));
      }
    } finally {
      await log.db.execute(sql`delete from webhook_events where type = 'same-ms'`);
    }
  });

  it("keeps the CSV cell rules: quotes, formula guard, JSON, empty cells", () => {
    expect(csvCell(null)).toBe("");
    expect(csvCell("")).toBe("");
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('say "hi", then\r\ngo')).toBe('"say ""hi"", then\r\ngo"');
    for (const lead of ["=", "+", "-", "@", "\t", "\r"])
      expect(csvCell(`${lead}1`).startsWith(lead === "\r" ? `"'` : "'")).toBe(true);
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell(-5)).toBe("'-5");
    expect(csvCell(42)).toBe("42");
    expect(csvCell(true)).toBe("true");
    expect(csvCell({ a: "b,c" })).toBe('"{""a"":""b,c""}"');
  });

  it("writes times as Date#toISOString does, whatever text the driver hands over", () => {
    const texts = [
      "2025-06-01 00:00:00+00",
      "2025-06-01 00:00:00.1+00",
      "2025-06-01 00:00:00.12+00",
      "2025-06-01 00:00:00.123+00",
      "2025-06-01 00:00:00.1239+00",
      "2025-06-01 00:00:00.123999+00",
      "2025-06-01 02:30:00.5+02:30",
      "2025-06-01 00:00:00.5-05",
      "0999-01-01 00:00:00+00",
    ];
    for (const text of texts) expect(isoTimestamp(text)).toBe(new Date(text).toISOString());
    expect(isoTimestamp(null)).toBeNull();
  });
});

/** A full garbage collection (Node's global gc(), which V8 gives a context made after --expose-gc is set). */
v8.setFlagsFromString("--expose-gc");
const collectGarbage = vm.runInNewContext("gc") as () => void;

describe("export", () => {
  // Enough that holding them would break the bound (30k rows held: 41 MB of heap; streamed: 4 MB at most;
  // docs/performance.md, "Tests"), few enough to stream in seconds.
  const events = 30_000;
  it(
    "streams 30k events with bounded memory, pulling pages only as the reader asks",
    async () => {
      // Free of the pool's statement timeout, as the bulk loader is: on a starved PostgreSQL it can pass 15 s.
      await inUntimedTransaction(log.db, (tx) =>
        tx.execute(sql`
      insert into webhook_events (connection_id, event_id, type, tenant_id, envelope_time, first_received_at, last_received_at,
        signature_status, raw_body, user_id, verification_method, expires_at, user_authenticator_id, email)
      select ${log.globex}::uuid, 'bulk-' || g, 'bulk', ${TENANT_ID}, now(), now() - (g || ' seconds')::interval, now(), 'verified_key1',
        '{"bulk":' || g || '}', 'usr_bulk_' || g, 'PUSH', now(), 'ua_bulk_' || g, 'user' || g || '@example.com'
      from generate_series(1, ${events}) g`),
      );
      // Planner statistics as the console keeps them (autovacuum on PostgreSQL, the hourly upkeep on PGlite):
      // without them PGlite sorts every remaining row for each page.
      await log.db.execute(sql`analyze webhook_events`);

      // Back-pressure: reading the first chunk pulls one batch of rows (one page from the database), not the table.
      let rowsPulled = 0;
      const counting = (async function* () {
        for await (const row of iterateWebhookEvents(filters({ type: "bulk" }), "support", 1000)) {
          rowsPulled += 1;
          yield row;
        }
      })();
      const lazy = exportStream(counting, "csv", EVENT_EXPORT_COLUMNS).getReader();
      await lazy.read();
      await new Promise((r) => setTimeout(r, 50));
      expect(rowsPulled).toBeGreaterThan(0);
      expect(rowsPulled).toBeLessThanOrEqual(200);
      await lazy.cancel();

      const stream = exportStream(
        iterateWebhookEvents(filters({ type: "bulk" }), "support", 1000),
        "csv",
        EVENT_EXPORT_COLUMNS,
      );
      const reader = stream.getReader();
      const decoder = new TextDecoder();
      let lines = 0;
      let bytes = 0;
      let peakRetained = 0;
      let nextSample = 0;
      let sawUnmasked = false;
      // What the export holds, not the garbage a collection has yet to free (which grew past 64 MB once,
      // with the machine busy): the heap after a full collection, every 10k lines.
      collectGarbage();
      const baseline = process.memoryUsage().heapUsed;
      for (;;) {
        const { done, value: chunk } = await reader.read();
        if (done) break;
        const value = decoder.decode(chunk, { stream: true });
        bytes += value.length;
        lines += value.split("\r\n").length - 1;
        if (/user\d+@example\.com/.test(value)) sawUnmasked = true;
        if (lines >= nextSample) {
          collectGarbage();
          peakRetained = Math.max(peakRetained, process.memoryUsage().heapUsed - baseline);
          nextSample += 10_000;
        }
      }
      expect(lines).toBe(events + 1); // header + rows
      expect(sawUnmasked).toBe(false);
      expect(bytes).toBeGreaterThan(events * 200);
      expect(peakRetained).toBeLessThan(16 * 1024 * 1024);
    },
    scaled(180_000),
  );
});
