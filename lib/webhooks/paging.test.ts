import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { webhookEvents } from "@/lib/db/schema";
import { TENANT_ID } from "@/lib/testing/webhooks";

import { withCursorFallback } from "./cursor";
import type { EventFilters } from "./schemas";
import { at, filters, setUpSeededWebhookLog, userIds } from "./test-helpers";
import { listWebhookEvents } from "./webhooks";

// Keyset pages of the log (./paging.ts, ./cursor.ts), read through the log's pages.

const log = setUpSeededWebhookLog();

describe("cursor pagination", () => {
  it("walks every row once, and stays stable when newer rows arrive meanwhile", async () => {
    const first = await listWebhookEvents(filters({ limit: "2" }), "admin");
    expect(first.items.map((e) => e.eventId)).toEqual(["evt-4", "evt-3"]);
    expect(first.nextCursor).toEqual(expect.any(String));
    await log.db.insert(webhookEvents).values({
      connectionId: log.acme,
      type: "authenticator.expired",
      eventId: "evt-new",
      tenantId: TENANT_ID,
      envelopeTime: at(100),
      firstReceivedAt: at(100),
      lastReceivedAt: at(100),
      signatureStatus: "unsigned",
      rawBody: "{}",
      userId: "usr_new",
    });
    const second = await listWebhookEvents(filters({ limit: "2", cursor: first.nextCursor! }), "admin");
    expect(second.items.map((e) => e.eventId)).toEqual(["evt-2", "evt-1"]);
    expect(second.nextCursor).toBeNull();
    await log.db.execute(sql`delete from webhook_events where event_id = 'evt-new'`);
  });

  it("pages back to newer rows, newest first, and knows when it reached the newest page", async () => {
    const first = await listWebhookEvents(filters({ limit: "1" }), "admin");
    expect(first.newerCursor).toBeNull();
    const second = await listWebhookEvents(filters({ limit: "1", cursor: first.nextCursor! }), "admin");
    const third = await listWebhookEvents(filters({ limit: "1", cursor: second.nextCursor! }), "admin");
    expect([first, second, third].map((p) => p.items[0]?.eventId)).toEqual(["evt-4", "evt-3", "evt-2"]);
    const backToSecond = await listWebhookEvents(filters({ limit: "1", cursor: third.newerCursor! }), "admin");
    expect(backToSecond.items.map((e) => e.eventId)).toEqual(["evt-3"]);
    expect(backToSecond.nextCursor).toEqual(expect.any(String));
    const backToFirst = await listWebhookEvents(filters({ limit: "1", cursor: backToSecond.newerCursor! }), "admin");
    expect(backToFirst.items.map((e) => e.eventId)).toEqual(["evt-4"]);
    expect(backToFirst.newerCursor).toBeNull();
    // A page of several rows read newer-wards still lists newest first.
    const twoOlder = await listWebhookEvents(filters({ limit: "2", cursor: third.nextCursor! }), "admin");
    expect(twoOlder.items.map((e) => e.eventId)).toEqual(["evt-1"]);
    const twoNewer = await listWebhookEvents(filters({ limit: "2", cursor: twoOlder.newerCursor! }), "admin");
    expect(twoNewer.items.map((e) => e.eventId)).toEqual(["evt-3", "evt-2"]);
  });

  it("applies a relative received preset against the current time", async () => {
    // The seeds were received in 2025: none is in the last 7 days.
    expect(await userIds({ received: "7d" })).toEqual([]);
  });

  it("breaks ties on equal received times by id", async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) {
      const [row] = await log.db
        .insert(webhookEvents)
        .values({
          connectionId: log.globex,
          type: "tie",
          eventId: `tie-${i}`,
          tenantId: TENANT_ID,
          envelopeTime: at(50),
          firstReceivedAt: at(50),
          lastReceivedAt: at(50),
          signatureStatus: "unsigned",
          rawBody: "{}",
        })
        .returning({ id: webhookEvents.id });
      ids.push(row!.id);
    }
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await listWebhookEvents(
        filters({ type: "tie", limit: "1", ...(cursor ? { cursor } : {}) }),
        "admin",
      );
      seen.push(...page.items.map((e) => e.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });

  it("refuses a cursor it did not make", async () => {
    await expect(listWebhookEvents(filters({ cursor: "bm9wZQ" }), "admin")).rejects.toThrow(/cursor/);
  });

  it("for the page, falls back to the newest page on a foreign cursor and names it; other errors still throw", async () => {
    const list = (f: EventFilters) => listWebhookEvents(f, "admin");
    const kept = [{ name: "limit", label: "Rows per page", message: "too big" }];
    const fallback = await withCursorFallback(filters({ cursor: "bm9wZQ" }), kept, list);
    expect(fallback.filters.cursor).toBeUndefined();
    expect(fallback.ignored).toEqual([...kept, { name: "cursor", label: "Page", message: "not a page of this log" }]);
    expect(fallback.result.items.map((e) => e.id)).toEqual((await list(filters())).items.map((e) => e.id));
    const fine = await withCursorFallback(filters(), [], list);
    expect(fine.ignored).toEqual([]);
    await expect(withCursorFallback(filters(), [], () => Promise.reject(new Error("database down")))).rejects.toThrow(
      "database down",
    );
  });
});
