import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { webhookEvents } from "@/lib/db/schema";
import { insertTestConnection, TENANT_ID } from "@/lib/testing/webhooks";

import { EVENT_EXPORT_COLUMNS } from "./export";
import { parseEventFilters } from "./filters";
import { eventFiltersSchema } from "./schemas";
import { at, filters, setUpSeededWebhookLog, userIds } from "./test-helpers";
import { listWebhookEvents } from "./webhooks";

// The log's filters as SQL (./conditions.ts), read through the log's pages.

const log = setUpSeededWebhookLog();

describe("filters", () => {
  it("defaults to authenticator.expired, newest first; type=all shows every kind", async () => {
    expect(await userIds({})).toEqual(["usr_al%ce", "usr_bob", "usr_albert", "usr_alice"]);
    expect(await userIds({ type: "all" })).toHaveLength(5);
    expect(await userIds({ type: "authenticator.created" })).toEqual(["usr_alice"]);
  });

  it("selects events by connection, method, platform and user authenticator", async () => {
    expect(await userIds({ connectionId: log.globex })).toEqual(["usr_al%ce", "usr_bob"]);
    expect(await userIds({ verificationMethod: "PUSH" })).toEqual(["usr_bob", "usr_alice"]);
    expect(await userIds({ devicePlatform: "ANDROID" })).toEqual(["usr_bob"]);
    expect(await userIds({ userAuthenticatorId: "ua_2" })).toEqual(["usr_albert"]);
  });

  it("selects events by user id, exact or prefix, with LIKE wildcards taken literally", async () => {
    expect(await userIds({ userId: "usr_al" })).toEqual([]);
    expect(await userIds({ userId: "usr_al", userIdMatch: "prefix" })).toEqual([
      "usr_al%ce",
      "usr_albert",
      "usr_alice",
    ]);
    expect(await userIds({ userId: "usr_al%", userIdMatch: "prefix" })).toEqual(["usr_al%ce"]);
    expect(await userIds({ userId: "usr_alice" })).toEqual(["usr_alice"]);
  });

  it("selects events by received-time and expiry ranges (inclusive)", async () => {
    expect(await userIds({ receivedFrom: at(2).toISOString(), receivedTo: at(3).toISOString() })).toEqual([
      "usr_bob",
      "usr_albert",
    ]);
    expect(await userIds({ expiresFrom: at(-30).toISOString(), expiresTo: at(0).toISOString() })).toEqual([
      "usr_bob",
      "usr_albert",
    ]);
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
  // first_received_at − expires_at of each row, in ms: either side of every bucket bound, one negative, one without
  // expiresAt.
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
      await log.db.insert(webhookEvents).values({
        connectionId: delayed,
        type: "authenticator.expired",
        eventId: `delay-${userId}`,
        tenantId: TENANT_ID,
        envelopeTime: received,
        firstReceivedAt: received,
        lastReceivedAt: received,
        signatureStatus: "verified_key1",
        rawBody: "{}",
        userId,
        expiresAt: delay === null ? null : new Date(received.getTime() - delay),
      });
    }
    await log.db.insert(webhookEvents).values({
      connectionId: delayed,
      type: "authenticator.expired",
      eventId: "console-test-6f1d6a52-6d2a-4f7e-9b1e-2d9c1a0b7c11",
      tenantId: TENANT_ID,
      envelopeTime: at(501),
      firstReceivedAt: at(501),
      lastReceivedAt: at(501),
      signatureStatus: "verified_key1",
      rawBody: "{}",
      userId: "usr_console_test",
      isTest: true,
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
    const expiring = (fromMs: number, toMs: number) => ({
      connectionId: delayed,
      expiresFrom: new Date(received - fromMs).toISOString(),
      expiresTo: new Date(received - toMs).toISOString(),
    });
    const withExpiry = delays
      .filter(([, delay]) => delay !== null)
      .map(([userId]) => userId)
      .sort();
    expect((await userIds(expiring(2 * 86_400_000, -60_000))).sort()).toEqual(withExpiry);
    // Expired at least an hour before it arrived: the late one (exactly 24 h) included, the early one not.
    expect((await userIds(expiring(2 * 86_400_000, 3_600_000))).sort()).toEqual([
      "d21600",
      "d3600",
      "d86399.999",
      "d86400",
    ]);
    expect((await userIds(expiring(86_400_000, 86_400_000))).sort()).toEqual(["d86400"]);
    expect((await userIds(expiring(0, -60_000))).sort()).toEqual(["d0", "early"]);
    expect(await userIds({ connectionId: delayed, expiresFrom: new Date(received + 60_000).toISOString() })).toEqual(
      [],
    );

    // Two rows a page: every row once going older, and the same rows again coming back newer.
    const pageOf = (cursor?: string) =>
      listWebhookEvents(
        filters({ ...expiring(2 * 86_400_000, -60_000), limit: "2", ...(cursor ? { cursor } : {}) }),
        "admin",
      );
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
    await log.db.execute(sql`delete from webhook_events where connection_id = ${delayed}`);
  });
});
