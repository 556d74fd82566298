import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { webhookEvents } from "@/lib/db/schema";
import { setUpTestDatabase } from "@/lib/testing/database";
import { ensureEventPartitions } from "./partitions";
import { csvCell, EVENT_EXPORT_COLUMNS, exportStream, isoTimestamp } from "./export";
import { eventFiltersSchema, parseEventFilters, type EventFilters } from "./filters";
import { withCursorFallback } from "./cursor";
import { getWebhookEvent, iterateWebhookEvents, listWebhookEvents } from "./webhooks";
import { insertTestConnection, TENANT_ID } from "@/lib/testing/webhooks";

let db: Database;
let tearDown: () => Promise<void>;
let acme: string;
let globex: string;

const base = Date.parse("2025-06-01T00:00:00.000Z");
const at = (minutes: number) => new Date(base + minutes * 60_000);

type Seed = Partial<typeof webhookEvents.$inferInsert> & { n: number };
const seeds: Seed[] = [];

function filters(input: Record<string, string> = {}): EventFilters {
  const parsed = parseEventFilters(input);
  if (!parsed.ok) throw new Error(parsed.errorDescription);
  return parsed.filters;
}

async function userIds(input: Record<string, string>) {
  return (await listWebhookEvents(filters({ limit: "200", ...input }), "admin")).items.map((e) => e.userId);
}

beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
  // Events are inserted straight into the table here: their months' partitions first (the receiver makes its own).
  await ensureEventPartitions(new Date(base), new Date("2025-07-01T00:00:00Z"));
  await ensureEventPartitions(new Date(Date.now() - 2 * 86_400_000), new Date());
  acme = (await insertTestConnection("Acme")).id;
  globex = (await insertTestConnection("Globex")).id;
  seeds.push(
    { n: 1, connectionId: acme, userId: "usr_alice", verificationMethod: "PUSH", devicePlatform: "IOS", userAuthenticatorId: "ua_1", expiresAt: at(-60), email: "alice@example.com" },
    { n: 2, connectionId: acme, userId: "usr_albert", verificationMethod: "SMS", userAuthenticatorId: "ua_2", expiresAt: at(-30), phoneNumber: "+15555551234" },
    { n: 3, connectionId: globex, userId: "usr_bob", verificationMethod: "PUSH", devicePlatform: "ANDROID", userAuthenticatorId: "ua_3", expiresAt: at(0) },
    { n: 4, connectionId: globex, userId: "usr_al%ce", verificationMethod: "PASSKEY", userAuthenticatorId: "ua_4", expiresAt: at(10) },
    { n: 5, connectionId: acme, userId: "usr_alice", verificationMethod: "EMAIL_OTP", userAuthenticatorId: "ua_5", expiresAt: at(20), type: "authenticator.created" },
  );
  for (const s of seeds) {
    const { n, ...values } = s;
    await db.insert(webhookEvents).values({
      type: "authenticator.expired",
      eventId: `evt-${n}`,
      tenantId: TENANT_ID,
      envelopeTime: at(n),
      firstReceivedAt: at(n),
      lastReceivedAt: at(n),
      signatureStatus: "verified_key1",
      rawBody: JSON.stringify({ id: `evt-${n}`, data: { email: values.email, phoneNumber: values.phoneNumber } }),
      connectionId: acme,
      ...values,
    });
  }
});
afterAll(() => tearDown());

describe("filters", () => {
  it("defaults to authenticator.expired, newest first; type=all shows every kind", async () => {
    expect(await userIds({})).toEqual(["usr_al%ce", "usr_bob", "usr_albert", "usr_alice"]);
    expect(await userIds({ type: "all" })).toHaveLength(5);
    expect(await userIds({ type: "authenticator.created" })).toEqual(["usr_alice"]);
  });

  it("by connection, method, platform and user authenticator", async () => {
    expect(await userIds({ connectionId: globex })).toEqual(["usr_al%ce", "usr_bob"]);
    expect(await userIds({ verificationMethod: "PUSH" })).toEqual(["usr_bob", "usr_alice"]);
    expect(await userIds({ devicePlatform: "ANDROID" })).toEqual(["usr_bob"]);
    expect(await userIds({ userAuthenticatorId: "ua_2" })).toEqual(["usr_albert"]);
  });

  it("by user id, exact or prefix, with LIKE wildcards taken literally", async () => {
    expect(await userIds({ userId: "usr_al" })).toEqual([]);
    expect(await userIds({ userId: "usr_al", userIdMatch: "prefix" })).toEqual(["usr_al%ce", "usr_albert", "usr_alice"]);
    expect(await userIds({ userId: "usr_al%", userIdMatch: "prefix" })).toEqual(["usr_al%ce"]);
    expect(await userIds({ userId: "usr_alice" })).toEqual(["usr_alice"]);
  });

  it("by received-time and expiry ranges (inclusive)", async () => {
    expect(await userIds({ receivedFrom: at(2).toISOString(), receivedTo: at(3).toISOString() })).toEqual(["usr_bob", "usr_albert"]);
    expect(await userIds({ expiresFrom: at(-30).toISOString(), expiresTo: at(0).toISOString() })).toEqual(["usr_bob", "usr_albert"]);
  });

  it("refuses bad parameters with the field's name", () => {
    for (const [input, field] of [
      [{ connectionId: "nope" }, "connectionId"],
      [{ receivedFrom: "yesterday" }, "receivedFrom"],
      [{ limit: "1000" }, "limit"],
      [{ userIdMatch: "regex" }, "userIdMatch"],
    ] as const) {
      const parsed = parseEventFilters(input);
      expect(parsed.ok).toBe(false);
      // Named by its label and its parameter: "Rows per page (limit): …".
      if (!parsed.ok) expect(parsed.errorDescription).toMatch(new RegExp(`^[A-Z][a-z ]+ \\(${field}\\): `));
    }
    expect(eventFiltersSchema.parse({}).limit).toBe(50);
  });
});

describe("test and delay filters", () => {
  // first_received_at − expires_at of each row, in ms: either side of every bucket bound, one negative, one without expiresAt.
  const delays: Array<[string, number | null]> = [
    ["early", -5_000],
    ["d0", 0],
    ["d59.999", 59_999],
    ["d60", 60_000],
    ["d599.999", 599_999],
    ["d600", 600_000],
    ["d3600", 3_600_000],
    ["d21600", 21_600_000],
    ["d86399.999", 86_399_999],
    ["d86400", 86_400_000],
    ["no-expiry", null],
  ];
  let delayed: string;

  beforeAll(async () => {
    delayed = (await insertTestConnection("Delayed")).id;
    const received = at(500);
    for (const [userId, delay] of delays) {
      await db.insert(webhookEvents).values({
        connectionId: delayed, type: "authenticator.expired", eventId: `delay-${userId}`, tenantId: TENANT_ID, envelopeTime: received,
        firstReceivedAt: received, lastReceivedAt: received, signatureStatus: "verified_key1", rawBody: "{}", userId,
        expiresAt: delay === null ? null : new Date(received.getTime() - delay),
      });
    }
    await db.insert(webhookEvents).values({
      connectionId: delayed, type: "authenticator.expired", eventId: "console-test-6f1d6a52-6d2a-4f7e-9b1e-2d9c1a0b7c11", tenantId: TENANT_ID,
      envelopeTime: at(501), firstReceivedAt: at(501), lastReceivedAt: at(501), signatureStatus: "verified_key1", rawBody: "{}", userId: "usr_console_test", isTest: true,
    });
  });

  const inBucket = async (delay: string) => (await userIds({ connectionId: delayed, delay })).sort();

  it("puts each delay in one bucket, lower bound inclusive, upper exclusive; no expiry matches none", async () => {
    expect(await inBucket("lt1m")).toEqual(["d0", "d59.999", "early"]);
    expect(await inBucket("1m-10m")).toEqual(["d599.999", "d60"]);
    expect(await inBucket("10m-1h")).toEqual(["d600"]);
    expect(await inBucket("1h-6h")).toEqual(["d3600"]);
    expect(await inBucket("6h-24h")).toEqual(["d21600", "d86399.999"]);
    expect(await inBucket("gt24h")).toEqual(["d86400"]);
  });

  it("finds by expiry every event in the range, delivered inside the 24-hour window or outside it, page by page both ways", async () => {
    const received = at(500).getTime();
    const expiring = (fromMs: number, toMs: number) => ({ connectionId: delayed, expiresFrom: new Date(received - fromMs).toISOString(), expiresTo: new Date(received - toMs).toISOString() });
    const withExpiry = delays.filter(([, delay]) => delay !== null).map(([userId]) => userId).sort();
    expect((await userIds(expiring(2 * 86_400_000, -60_000))).sort()).toEqual(withExpiry);
    // Expired at least an hour before it arrived: the late one (exactly 24 h) included, the early one not.
    expect((await userIds(expiring(2 * 86_400_000, 3_600_000))).sort()).toEqual(["d21600", "d3600", "d86399.999", "d86400"]);
    expect((await userIds(expiring(86_400_000, 86_400_000))).sort()).toEqual(["d86400"]);
    expect((await userIds(expiring(0, -60_000))).sort()).toEqual(["d0", "early"]);
    expect(await userIds({ connectionId: delayed, expiresFrom: new Date(received + 60_000).toISOString() })).toEqual([]);

    // Two rows a page: every row once going older, and the same rows again coming back newer.
    const pageOf = (cursor?: string) => listWebhookEvents(filters({ ...expiring(2 * 86_400_000, -60_000), limit: "2", ...(cursor ? { cursor } : {}) }), "admin");
    const pages = [await pageOf()];
    while (pages.at(-1)!.nextCursor) pages.push(await pageOf(pages.at(-1)!.nextCursor!));
    const older = pages.flatMap((p) => p.items.map((e) => e.userId));
    expect([...older].sort()).toEqual(withExpiry);
    const back = [pages.at(-1)!];
    while (back.at(-1)!.newerCursor) back.push(await pageOf(back.at(-1)!.newerCursor!));
    expect(back.reverse().flatMap((p) => p.items.map((e) => e.userId))).toEqual(older);
  });

  it("lists test events with the real ones unless test=exclude or test=only says otherwise", async () => {
    const all = (await listWebhookEvents(filters({ connectionId: delayed, limit: "200" }), "admin")).items;
    expect(all).toHaveLength(delays.length + 1);
    expect(all.filter((e) => e.isTest).map((e) => e.userId)).toEqual(["usr_console_test"]);
    expect(await userIds({ connectionId: delayed, test: "only" })).toEqual(["usr_console_test"]);
    expect(await userIds({ connectionId: delayed, test: "exclude" })).not.toContain("usr_console_test");
    expect(await userIds({ connectionId: delayed, test: "exclude" })).toHaveLength(delays.length);
  });

  it("exports the isTest column", () => {
    expect(EVENT_EXPORT_COLUMNS).toContain("isTest");
  });

  afterAll(async () => {
    await db.execute(sql`delete from webhook_events where connection_id = ${delayed}`);
  });
});

describe("cursor pagination", () => {
  it("walks every row once, and stays stable when newer rows arrive meanwhile", async () => {
    const first = await listWebhookEvents(filters({ limit: "2" }), "admin");
    expect(first.items.map((e) => e.eventId)).toEqual(["evt-4", "evt-3"]);
    expect(first.nextCursor).toEqual(expect.any(String));
    await db.insert(webhookEvents).values({
      connectionId: acme, type: "authenticator.expired", eventId: "evt-new", tenantId: TENANT_ID, envelopeTime: at(100),
      firstReceivedAt: at(100), lastReceivedAt: at(100), signatureStatus: "unsigned", rawBody: "{}", userId: "usr_new",
    });
    const second = await listWebhookEvents(filters({ limit: "2", cursor: first.nextCursor! }), "admin");
    expect(second.items.map((e) => e.eventId)).toEqual(["evt-2", "evt-1"]);
    expect(second.nextCursor).toBeNull();
    await db.execute(sql`delete from webhook_events where event_id = 'evt-new'`);
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
      const [row] = await db.insert(webhookEvents).values({
        connectionId: globex, type: "tie", eventId: `tie-${i}`, tenantId: TENANT_ID, envelopeTime: at(50),
        firstReceivedAt: at(50), lastReceivedAt: at(50), signatureStatus: "unsigned", rawBody: "{}",
      }).returning({ id: webhookEvents.id });
      ids.push(row!.id);
    }
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await listWebhookEvents(filters({ type: "tie", limit: "1", ...(cursor ? { cursor } : {}) }), "admin");
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
    await expect(withCursorFallback(filters(), [], () => Promise.reject(new Error("database down")))).rejects.toThrow("database down");
  });
});

describe("personal data by role", () => {
  it("support sees email and phone masked in the list and the detail (raw body included); admin in full", async () => {
    const asSupport = (await listWebhookEvents(filters({ connectionId: acme }), "support")).items;
    expect(asSupport.find((e) => e.eventId === "evt-1")?.email).toBe("a•••@example.com");
    expect(asSupport.find((e) => e.eventId === "evt-2")?.phoneNumber).toBe("+•••••••1234");
    const id = asSupport.find((e) => e.eventId === "evt-1")!.id;
    const detail = await getWebhookEvent(id, "support");
    expect(detail?.rawBody).not.toContain("alice@example.com");
    expect(detail?.piiMasked).toBe(true);
    const full = await getWebhookEvent(id, "admin");
    expect(full?.email).toBe("alice@example.com");
    expect(full?.rawBody).toContain("alice@example.com");
  });

  it("support sees the raw body of any event type masked, escaped values included", async () => {
    const rawBody = String.raw`{"type":"authenticator.created","data":{"email":"carol@example.com","phoneNumber":"+15550009876"}}`;
    const [row] = await db.insert(webhookEvents).values({
      connectionId: acme, type: "authenticator.created", eventId: "evt-created-pii", tenantId: TENANT_ID, envelopeTime: at(60),
      firstReceivedAt: at(60), lastReceivedAt: at(60), signatureStatus: "unsigned", rawBody,
    }).returning({ id: webhookEvents.id });
    try {
      const detail = await getWebhookEvent(row!.id, "support");
      expect(JSON.parse(detail!.rawBody).data).toEqual({ email: "c•••@example.com", phoneNumber: "+•••••••9876" });
      expect((await getWebhookEvent(row!.id, "admin"))?.rawBody).toBe(rawBody);
    } finally {
      await db.execute(sql`delete from webhook_events where event_id = 'evt-created-pii'`);
    }
  });
});

/** Every row iterateWebhookEvents yields. */
async function exported(input: Record<string, string>, role: "admin" | "support", pageSize: number) {
  const rows = [];
  for await (const row of iterateWebhookEvents(filters(input), role, pageSize)) rows.push(row);
  return rows;
}

/** Every item of the log's pages, read with the API's cursors. */
async function paged(input: Record<string, string>, role: "admin" | "support") {
  const items = [];
  for (let cursor: string | null | undefined = input.cursor; ; ) {
    const page = await listWebhookEvents(filters({ ...input, limit: "2", ...(cursor ? { cursor } : {}) }), role);
    items.push(...page.items);
    if (!page.nextCursor) return items;
    cursor = page.nextCursor;
  }
}

describe("export iteration", () => {
  it("yields the log's items, field for field and in its order and key order, masked for support", async () => {
    const cases: Record<string, string>[] = [
      {},
      { connectionId: acme },
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
    const support = await exported({ connectionId: acme }, "support", 1000);
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
    await db.execute(sql`
      insert into webhook_events (connection_id, event_id, type, tenant_id, envelope_time, first_received_at, last_received_at, signature_status, raw_body)
      select ${acme}::uuid, 'same-ms-' || g, 'same-ms', ${TENANT_ID}, now(), '2025-07-01 00:00:00.123+00', now(), 'unsigned', '{}'
      from generate_series(1, 10) g`);
    try {
      for (const pageSize of [1, 3, 1000]) {
        const rows = await exported({ type: "same-ms" }, "admin", pageSize);
        expect(rows.map((r) => r.eventId)).toEqual(Array.from({ length: 10 }, (_, i) => `same-ms-${10 - i}`));
        expect(new Set(rows.map((r) => r.firstReceivedAt))).toEqual(new Set(["2025-07-01T00:00:00.123Z"]));
      }
    } finally {
      await db.execute(sql`delete from webhook_events where type = 'same-ms'`);
    }
  });

  it("keeps the CSV cell rules: quotes, formula guard, JSON, empty cells", () => {
    expect(csvCell(null)).toBe("");
    expect(csvCell("")).toBe("");
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('say "hi", then\r\ngo')).toBe('"say ""hi"", then\r\ngo"');
    for (const lead of ["=", "+", "-", "@", "\t", "\r"]) expect(csvCell(`${lead}1`).startsWith(lead === "\r" ? `"'` : "'")).toBe(true);
    expect(csvCell("=HYPERLINK(\"x\")")).toBe(`"'=HYPERLINK(""x"")"`);
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

describe("export", () => {
  it("streams 100k events with bounded memory, pulling pages only as the reader asks", async () => {
    await db.execute(sql`
      insert into webhook_events (connection_id, event_id, type, tenant_id, envelope_time, first_received_at, last_received_at,
        signature_status, raw_body, user_id, verification_method, expires_at, user_authenticator_id, email)
      select ${globex}::uuid, 'bulk-' || g, 'bulk', ${TENANT_ID}, now(), now() - (g || ' seconds')::interval, now(), 'verified_key1',
        '{"bulk":' || g || '}', 'usr_bulk_' || g, 'PUSH', now(), 'ua_bulk_' || g, 'user' || g || '@example.com'
      from generate_series(1, 100000) g`);

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

    const stream = exportStream(iterateWebhookEvents(filters({ type: "bulk" }), "support", 1000), "csv", EVENT_EXPORT_COLUMNS);
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    let lines = 0;
    let bytes = 0;
    let peakHeap = 0;
    let sawUnmasked = false;
    const baseline = process.memoryUsage().heapUsed;
    for (;;) {
      const { done, value: chunk } = await reader.read();
      if (done) break;
      const value = decoder.decode(chunk, { stream: true });
      bytes += value.length;
      lines += value.split("\r\n").length - 1;
      if (/user\d+@example\.com/.test(value)) sawUnmasked = true;
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed - baseline);
    }
    expect(lines).toBe(100_001); // header + rows
    expect(sawUnmasked).toBe(false);
    // 100k row objects held at once take well over 100 MB of heap; streaming stays at a few pages plus GC slack.
    expect(bytes).toBeGreaterThan(15_000_000);
    expect(peakHeap).toBeLessThan(64 * 1024 * 1024);
  }, 180_000);
});
