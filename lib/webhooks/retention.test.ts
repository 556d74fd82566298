import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Database } from "@/lib/db";
import { forwardAttempts, forwardDeliveries, forwardDestinations } from "@/lib/db/forwarding-schema";
import { loginAttempts, webhookEvents, webhookRejections } from "@/lib/db/schema";
import { apiTokenGuesses } from "@/lib/db/tokens-schema";
import { setUpTestDatabase } from "@/lib/testing/database";
import { insertTestConnection, TENANT_ID } from "@/lib/testing/webhooks";

import { ensureEventPartitions } from "./partitions";
import { purgeWebhookData } from "./retention";

let db: Database;
let tearDown: () => Promise<void>;
let url: string | undefined;
beforeAll(async () => {
  ({ db, tearDown, url } = await setUpTestDatabase());
  // Rows are inserted straight into the table: their months' partitions first.
  await ensureEventPartitions(daysAgo(91), daysAgo(89));
});
afterAll(() => tearDown());

const now = new Date("2025-06-01T00:00:00.000Z");
const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000);

describe("retention", () => {
  it("purges events, rejections and forwards (with their attempts) older than the period, login attempts older than a day and token guesses older than their window", async () => {
    const { id } = await insertTestConnection("Retention");
    for (const [eventId, at] of [
      ["old", daysAgo(91)],
      ["recent", daysAgo(89)],
    ] as const) {
      await db.insert(webhookEvents).values({
        connectionId: id,
        eventId,
        type: "authenticator.expired",
        tenantId: TENANT_ID,
        envelopeTime: at,
        firstReceivedAt: at,
        lastReceivedAt: at,
        signatureStatus: "unsigned",
        rawBody: "{}",
      });
      await db.insert(webhookRejections).values({
        connectionId: id,
        receivedAt: at,
        status: 401,
        reason: "bad_signature",
        bodySha256: "x",
        headers: {},
      });
    }
    const [destination] = await db
      .insert(forwardDestinations)
      .values({ connectionId: id, name: "Handler", url: "https://hooks.example.test/in" })
      .returning();
    const deliveries = await db
      .insert(forwardDeliveries)
      .values(
        ["old", "recent"].map((eventId, i) => ({
          destinationId: destination!.id,
          connectionId: id,
          eventId,
          createdAt: daysAgo(i === 0 ? 91 : 89),
        })),
      )
      .returning();
    await db.insert(forwardAttempts).values({
      deliveryId: deliveries[0]!.id,
      destinationId: destination!.id,
      startedAt: daysAgo(91),
      latencyMs: 5,
      ok: true,
      outcome: "delivered",
    });
    await db.insert(loginAttempts).values([
      { email: "a@b.c", ip: "1", succeeded: false, attemptedAt: daysAgo(2) },
      { email: "a@b.c", ip: "1", succeeded: false, attemptedAt: daysAgo(0.5) },
    ]);
    await db.insert(apiTokenGuesses).values([
      { address: "1", guessedAt: new Date(now.getTime() - 16 * 60_000) },
      { address: "1", guessedAt: new Date(now.getTime() - 14 * 60_000) },
    ]);
    expect(await purgeWebhookData(now, 90)).toEqual({
      ran: true,
      events: 1,
      rejections: 1,
      deliveries: 1,
      loginAttempts: 1,
      tokenGuesses: 1,
      partitionsDropped: [],
    });
    expect((await db.select({ e: webhookEvents.eventId }).from(webhookEvents)).map((r) => r.e)).toEqual(["recent"]);
    expect(await db.$count(webhookRejections)).toBe(1);
    expect((await db.select({ e: forwardDeliveries.eventId }).from(forwardDeliveries)).map((r) => r.e)).toEqual([
      "recent",
    ]);
    expect(await db.$count(forwardAttempts)).toBe(0);
    expect(await purgeWebhookData(now, 90)).toEqual({
      ran: true,
      events: 0,
      rejections: 0,
      deliveries: 0,
      loginAttempts: 0,
      tokenGuesses: 0,
      partitionsDropped: [],
    });
  });

  it("drops the months of events entirely before the cutoff as whole partitions", async () => {
    const { id } = await insertTestConnection("Old months");
    // January and February 2025 end before the cutoff (2025-03-03): dropped whole. March 2025 straddles
    // it: its rows go one by one (none here is old enough), and the partition stays.
    await ensureEventPartitions(new Date("2025-01-15T00:00:00Z"), new Date("2025-03-15T00:00:00Z"));
    for (const [eventId, at] of [
      ["january", "2025-01-20T10:00:00Z"],
      ["february", "2025-02-27T23:59:59.999Z"],
      ["march", "2025-03-20T00:00:00Z"],
    ] as const) {
      const time = new Date(at);
      await db.insert(webhookEvents).values({
        connectionId: id,
        eventId,
        type: "authenticator.expired",
        tenantId: TENANT_ID,
        envelopeTime: time,
        firstReceivedAt: time,
        lastReceivedAt: time,
        signatureStatus: "unsigned",
        rawBody: "{}",
      });
    }
    const result = await purgeWebhookData(now, 90);
    expect(result).toMatchObject({
      ran: true,
      events: 2,
      partitionsDropped: ["webhook_events_2025_01", "webhook_events_2025_02"],
    });
    expect((await db.select({ e: webhookEvents.eventId }).from(webhookEvents)).map((r) => r.e).sort()).toEqual([
      "march",
      "recent",
    ]);
  });

  // PGlite has a single connection, so a second holder of the lock needs PostgreSQL (CI sets DATABASE_URL).
  it.skipIf(!process.env.DATABASE_URL)("skips the round while another instance holds the lock", async () => {
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await other.query("begin");
      await other.query("select pg_advisory_xact_lock(724117005)");
      expect(await purgeWebhookData(now, 90)).toEqual({ ran: false });
      await other.query("rollback");
      expect((await purgeWebhookData(now, 90)).ran).toBe(true);
    } finally {
      await other.end();
    }
  });
});
