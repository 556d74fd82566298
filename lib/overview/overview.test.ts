import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "@/emulator/server";
import { sealKey } from "@/lib/connections/repository";
import type { Database } from "@/lib/db";
import { connections, connectionSecrets, webhookEvents, webhookRejections } from "@/lib/db/schema";
import { setUpTestDatabase } from "@/lib/testing/database";
import { ensureEventPartitions } from "@/lib/webhooks/partitions";
import { demoTenant, startTestEmulator } from "@/lib/testing/emulator";
import { insertTestConnection, TENANT_ID } from "@/lib/testing/webhooks";
import { newWebhookToken } from "@/lib/webhooks/token";
import type { Region } from "@/lib/service/regions";
import { TEST_EVENT_ID_PREFIX } from "@/lib/webhooks/constants";
import {
  getConnectionHealth,
  getDelayHistogram,
  getEmailOtpPresence,
  getExpiredPerHour,
  getOverviewTotals,
  getRecentExpiries,
  getRejectionsPerDay,
} from "./overview";
import { healthVerdict } from "./verdict";

let db: Database;
let tearDown: () => Promise<void>;
let emulator: RunningEmulator;
let acme: string; // a server key: events verified, then bad signatures
let globex: string; // no server key: events stored unsigned
let initech: string; // nothing received, ever

// Noon and a half, a Sunday; the 7-day charts end in this hour and this UTC day.
const now = new Date("2025-06-08T12:30:00.000Z");
const ago = (ms: number) => new Date(now.getTime() - ms);
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
let seq = 0;

type EventSeed = {
  connectionId?: string;
  receivedAt: Date;
  method?: string | null;
  expiresAt?: Date | null;
  isTest?: boolean;
  type?: string;
  signatureStatus?: string;
  userId?: string;
};

async function insertEvents(...seeds: EventSeed[]): Promise<number[]> {
  const rows = await db
    .insert(webhookEvents)
    .values(
      seeds.map((s) => {
        const eventId = `${s.isTest ? TEST_EVENT_ID_PREFIX : "evt-"}${++seq}`;
        return {
          connectionId: s.connectionId ?? acme,
          eventId,
          type: s.type ?? "authenticator.expired",
          tenantId: TENANT_ID,
          envelopeTime: s.receivedAt,
          firstReceivedAt: s.receivedAt,
          lastReceivedAt: s.receivedAt,
          signatureStatus: s.signatureStatus ?? "verified_key1",
          rawBody: JSON.stringify({ id: eventId }),
          isTest: s.isTest ?? false,
          userId: s.userId ?? `usr_${seq}`,
          verificationMethod: s.method === undefined ? "PUSH" : s.method,
          expiresAt: s.expiresAt === undefined ? new Date(s.receivedAt.getTime() - 5_000) : s.expiresAt,
        };
      }),
    )
    .returning({ id: webhookEvents.id });
  return rows.map((r) => r.id);
}

async function insertRejections(...seeds: Array<{ connectionId?: string | null; receivedAt: Date; reason: string; eventId?: string }>) {
  await db.insert(webhookRejections).values(
    seeds.map((s) => ({
      connectionId: s.connectionId === undefined ? acme : s.connectionId,
      receivedAt: s.receivedAt,
      status: 401,
      reason: s.reason,
      eventId: s.eventId ?? null,
      bodySha256: "0".repeat(64),
      headers: {},
    })),
  );
}

/** Empties the event tables between describe blocks, so each states its own data. */
async function clearEvents() {
  await db.delete(webhookEvents);
  await db.delete(webhookRejections);
}

// The Canada region of this file: it accepts connections and never answers.
const silent = http.createServer(() => {});

beforeAll(async () => {
  emulator = await startTestEmulator();
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  process.env.SERVICE_BASE_URL_CA = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
  ({ db, tearDown } = await setUpTestDatabase());
  // Events are inserted straight into the table here: their months' partitions first.
  await ensureEventPartitions(new Date("2025-05-01T00:00:00Z"), now);
  acme = (await insertTestConnection("Acme", ["srv_key_acme_0001"])).id;
  globex = (await insertTestConnection("Globex")).id;
  initech = (await insertTestConnection("Initech")).id;
});
afterAll(async () => {
  await tearDown();
  await emulator.close();
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));
});

describe("empty database", () => {
  it("every chart and count is zero, with the time slots still laid out", async () => {
    const perHour = await getExpiredPerHour(now);
    expect(perHour.total).toBe(0);
    expect(perHour.series).toEqual([]);
    expect(perHour.hours).toHaveLength(7 * 24);
    expect(perHour.hours.at(-1)!.hour).toBe("2025-06-08T12:00:00.000Z");
    expect(perHour.hours[0]!.hour).toBe("2025-06-01T13:00:00.000Z");
    const delays = await getDelayHistogram(now);
    expect(delays.total).toBe(0);
    expect(delays.buckets.map((b) => b.count)).toEqual([0, 0, 0, 0, 0, 0]);
    const rejections = await getRejectionsPerDay(now);
    expect(rejections.total).toBe(0);
    expect(rejections.days.map((d) => d.day)).toEqual(["2025-06-02", "2025-06-03", "2025-06-04", "2025-06-05", "2025-06-06", "2025-06-07", "2025-06-08"].map((d) => `${d}T00:00:00.000Z`));
    expect(await getRecentExpiries(8, now)).toEqual([]);
    const health = await getConnectionHealth(undefined, now);
    expect(await getOverviewTotals(health, now)).toEqual({ connections: 3, events24h: 0, rejections24h: 0, lastEventAt: null });
    expect(health.map((h) => [h.name, h.events24h, h.rejections24h, h.lastEventAt, h.topRejectionReason24h])).toEqual([
      ["Acme", 0, 0, null, null],
      ["Globex", 0, 0, null, null],
      ["Initech", 0, 0, null, null],
    ]);
    expect(healthVerdict(health[0]!).label).toBe("No events yet");
  });
});

describe("expired events per hour", () => {
  beforeAll(async () => {
    await clearEvents();
    const at = (hours: number, minutes: number) => new Date(Date.parse("2025-06-08T00:00:00Z") + hours * HOUR + minutes * MIN);
    await insertEvents(
      { receivedAt: at(10, 0), method: "PUSH" }, // the hour's first instant belongs to it
      { receivedAt: at(10, 40), method: "PUSH", connectionId: globex },
      { receivedAt: at(10, 30), method: "SMS" },
      { receivedAt: new Date(Date.parse("2025-06-08T10:59:59.999Z")), method: "SMS" },
      { receivedAt: at(11, 0), method: "PUSH" }, // the next hour's first instant
      { receivedAt: at(12, 29), method: "FAX" }, // no method this console knows: "other"
      { receivedAt: at(12, 29), method: null },
      { receivedAt: at(10, 20), method: "PUSH", isTest: true }, // a test event: never counted
      { receivedAt: at(10, 20), method: "PUSH", type: "authenticator.created" }, // another kind
      { receivedAt: new Date(Date.parse("2025-06-01T12:59:59.999Z")), method: "PUSH" }, // before the first hour
      { receivedAt: new Date(Date.parse("2025-06-01T13:00:00.000Z")), method: "PASSKEY" }, // the first hour
    );
  });

  it("counts per hour and method, test events and other types left out", async () => {
    const perHour = await getExpiredPerHour(now);
    const hour = (iso: string) => perHour.hours.find((h) => h.hour === iso);
    expect(hour("2025-06-08T10:00:00.000Z")).toEqual({ hour: "2025-06-08T10:00:00.000Z", total: 4, bySeries: { PUSH: 2, SMS: 2 } });
    expect(hour("2025-06-08T11:00:00.000Z")).toEqual({ hour: "2025-06-08T11:00:00.000Z", total: 1, bySeries: { PUSH: 1 } });
    expect(hour("2025-06-08T12:00:00.000Z")).toEqual({ hour: "2025-06-08T12:00:00.000Z", total: 2, bySeries: { other: 2 } });
    expect(hour("2025-06-01T13:00:00.000Z")).toEqual({ hour: "2025-06-01T13:00:00.000Z", total: 1, bySeries: { PASSKEY: 1 } });
    expect(perHour.total).toBe(8);
    // Known methods in their fixed colour order (SERVICE-FACTS' list), the folded rest last.
    expect(perHour.series).toEqual(["SMS", "PASSKEY", "PUSH", "other"]);
  });
});

describe("delivery delay histogram", () => {
  beforeAll(async () => {
    await clearEvents();
    const receivedAt = ago(HOUR);
    const delayed = (ms: number, extra: Partial<EventSeed> = {}) => ({ receivedAt, expiresAt: new Date(receivedAt.getTime() - ms), ...extra });
    await insertEvents(
      delayed(-5_000), // received before the stated expiry: under 1 min
      delayed(0),
      delayed(59_999),
      delayed(60_000), // each bound starts its bucket
      delayed(599_999),
      delayed(600_000),
      delayed(3_600_000 - 1),
      delayed(3_600_000),
      delayed(21_600_000),
      delayed(86_400_000 - 1),
      delayed(86_400_000), // exactly 24 h is already late
      delayed(3 * DAY),
      delayed(3 * DAY, { isTest: true }),
      { receivedAt, expiresAt: null }, // no expiry: no delay to bucket
      { receivedAt: ago(8 * DAY), expiresAt: ago(9 * DAY) }, // older than the 7 days
    );
  });

  it("buckets at their boundaries, lower bound inclusive; > 24 h is marked late", async () => {
    const delays = await getDelayHistogram(now);
    expect(delays.buckets.map((b) => [b.key, b.count, b.late])).toEqual([
      ["lt1m", 3, false],
      ["1m-10m", 2, false],
      ["10m-1h", 2, false],
      ["1h-6h", 1, false],
      ["6h-24h", 2, false],
      ["gt24h", 2, true],
    ]);
    expect(delays.total).toBe(12);
    expect(delays.late).toBe(2);
  });
});

describe("connection health, rejections and totals", () => {
  let newestAcme: number;
  beforeAll(async () => {
    await clearEvents();
    const ids = await insertEvents(
      { receivedAt: ago(3 * DAY), userId: "usr_old" },
      { receivedAt: ago(2 * HOUR), userId: "usr_newest_acme" },
      { receivedAt: ago(10 * MIN), isTest: true }, // newer, but a test: neither counted nor "last event"
      { receivedAt: ago(5 * HOUR), type: "authenticator.created" }, // every type counts as an event
      { connectionId: globex, receivedAt: ago(HOUR), signatureStatus: "unsigned", userId: "usr_globex" },
      { connectionId: globex, receivedAt: ago(25 * HOUR), signatureStatus: "unsigned" },
    );
    newestAcme = ids[1]!;
    await insertRejections(
      { receivedAt: ago(30 * HOUR), reason: "bad_signature" }, // before the last 24 h
      { receivedAt: ago(20 * HOUR), reason: "bad_signature" },
      { receivedAt: ago(3 * HOUR), reason: "bad_signature" },
      { receivedAt: ago(2 * HOUR), reason: "stale_timestamp" },
      { receivedAt: ago(MIN), reason: "bad_signature", eventId: `${TEST_EVENT_ID_PREFIX}x` }, // a refused test delivery
      { connectionId: globex, receivedAt: ago(HOUR), reason: "malformed_json" },
      { connectionId: globex, receivedAt: ago(HOUR), reason: "invalid_envelope" },
      { connectionId: null, receivedAt: ago(HOUR), reason: "unknown_token" }, // a URL of no connection
    );
  });

  it("counts each connection's last 24 h and finds its top rejection reason", async () => {
    const [a, g, i] = await getConnectionHealth(undefined, now);
    expect(a).toMatchObject({
      name: "Acme",
      lastEventAt: ago(2 * HOUR).toISOString(),
      events24h: 2,
      unsigned24h: 0,
      rejections24h: 3,
      badSignature24h: 2,
      firstBadSignatureAt: ago(20 * HOUR).toISOString(),
      topRejectionReason24h: { reason: "bad_signature", count: 2 },
      keys: { server: { last4: "0001" } },
    });
    expect(g).toMatchObject({ name: "Globex", events24h: 1, unsigned24h: 1, rejections24h: 2, badSignature24h: 0, firstBadSignatureAt: null, keys: {} });
    // A tie is broken by the reason's name, so the card does not change between loads.
    expect(g!.topRejectionReason24h).toEqual({ reason: "invalid_envelope", count: 1 });
    expect(i).toMatchObject({ name: "Initech", events24h: 0, rejections24h: 0, lastEventAt: null, topRejectionReason24h: null });
  });

  it("warns about bad signatures and unsigned events", async () => {
    const [a, g, i] = await getConnectionHealth(undefined, now);
    expect(healthVerdict(a!)).toMatchObject({ label: "Needs attention", warnings: ["bad_signature"] });
    expect(healthVerdict(g!)).toMatchObject({ label: "Needs attention", warnings: ["unsigned"] });
    expect(healthVerdict(i!)).toMatchObject({ label: "No events yet", warnings: [] });
    expect(healthVerdict({ ...a!, badSignature24h: 0, rejections24h: 1 })).toMatchObject({ label: "Some refused", tone: "warning" });
    expect(healthVerdict({ ...a!, badSignature24h: 0, rejections24h: 0 })).toMatchObject({ label: "Healthy", tone: "success" });
    expect(healthVerdict({ ...a!, badSignature24h: 0, rejections24h: 0, events24h: 0 })).toMatchObject({ label: "Quiet" });
  });

  it("reads only the connections asked for", async () => {
    expect((await getConnectionHealth([globex], now)).map((h) => h.name)).toEqual(["Globex"]);
    expect(await getConnectionHealth([], now)).toEqual([]);
  });

  it("totals every connection's real events and every refusal, the unknown URL's too", async () => {
    const health = await getConnectionHealth(undefined, now);
    expect(await getOverviewTotals(health, now)).toEqual({ connections: 3, events24h: 3, rejections24h: 6, lastEventAt: ago(HOUR).toISOString() });
  });

  it("rejections per UTC day by reason, test deliveries left out", async () => {
    const perDay = await getRejectionsPerDay(now);
    const day = (iso: string) => perDay.days.find((d) => d.day === `${iso}T00:00:00.000Z`)?.bySeries;
    // 30 h and 20 h before 12:30 are yesterday; the rest today.
    expect(day("2025-06-07")).toEqual({ bad_signature: 2 });
    expect(day("2025-06-08")).toEqual({ bad_signature: 1, stale_timestamp: 1, malformed_json: 1, invalid_envelope: 1, unknown_token: 1 });
    expect(perDay.total).toBe(7);
    expect(perDay.series).toEqual(["unknown_token", "bad_signature", "stale_timestamp", "malformed_json", "invalid_envelope"]);
  });

  it("lists the newest real expiries of the last 24 h with their connection", async () => {
    const recent = await getRecentExpiries(8, now);
    expect(recent.map((r) => [r.userId, r.connectionName])).toEqual([
      ["usr_globex", "Globex"],
      ["usr_newest_acme", "Acme"],
    ]);
    expect(recent[1]).toMatchObject({ id: newestAcme, verificationMethod: "PUSH", firstReceivedAt: ago(2 * HOUR).toISOString() });
    expect(await getRecentExpiries(1, now)).toHaveLength(1);
  });
});

describe("email OTP presence", () => {
  async function insertWithManagementKey(name: string, region: Region, key: string) {
    const id = crypto.randomUUID();
    const token = newWebhookToken(id);
    await db.insert(connections).values({ id, name, region, webhookTokenHash: token.hash, webhookTokenCiphertext: token.ciphertext });
    await db.insert(connectionSecrets).values(sealKey(id, "management", key, null));
    return id;
  }

  it("present when the service returns the configuration", async () => {
    const acmeTenant = demoTenant("Acme");
    const id = await insertWithManagementKey("Acme (real key)", acmeTenant.region, acmeTenant.managementKey);
    expect(await getEmailOtpPresence(id)).toEqual({ kind: "present" });
  });

  it("unknown, in words, when the service refuses the key or does not answer in time", async () => {
    const refused = await insertWithManagementKey("Wrong key", "us", "mgmt_key_not_known_0001");
    expect(await getEmailOtpPresence(refused)).toEqual({ kind: "unknown", reason: expect.stringContaining("refused the management key") });
    const silentConnection = await insertWithManagementKey("Silent", "ca", "mgmt_key_silent_0001");
    const started = Date.now();
    expect(await getEmailOtpPresence(silentConnection, 300)).toEqual({ kind: "unknown", reason: "The service did not answer within 0.3 s." });
    expect(Date.now() - started).toBeLessThan(2000);
    // A connection without a management key (or deleted meanwhile) is unknown too, never an error.
    expect(await getEmailOtpPresence(initech)).toEqual({ kind: "unknown", reason: "This connection no longer exists." });
  });
});
