import { beforeAll, describe, expect, it } from "vitest";

import { sealKey } from "@/lib/connections/repository";
import { newWebhookToken } from "@/lib/connections/webhook-token";
import { connections, connectionSecrets } from "@/lib/db/schema";
import type { Region } from "@/lib/service/regions";
import { demoTenant } from "@/lib/testing/emulator";
import { TEST_EVENT_ID_PREFIX } from "@/lib/webhooks/constants";

import {
  getConnectionHealth,
  getEmailOtpPresence,
  getOverviewTotals,
  getRecentExpiries,
  getRejectionsPerDay,
} from "./overview";
import { ago, clearEvents, DAY, HOUR, insertEvents, insertRejections, MIN, now, overviewFixture } from "./test-helpers";
import { healthFacts, healthVerdict } from "./verdict";

/**
 * Each connection's health (./health.ts) and what the overview counts beside it: totals, rejections per
 * day, the newest expiries; and whether a connection has email OTP, asked of the service.
 */
const overview = overviewFixture();

describe("connection health, rejections and totals", () => {
  let newestAcme: number;
  beforeAll(async () => {
    await clearEvents();
    const ids = await insertEvents(
      { receivedAt: ago(3 * DAY), userId: "usr_old" },
      { receivedAt: ago(2 * HOUR), userId: "usr_newest_acme" },
      { receivedAt: ago(10 * MIN), isTest: true }, // newer, but a test: neither counted nor "last event"
      { receivedAt: ago(5 * HOUR), type: "authenticator.created" }, // every type counts as an event
      { connectionId: overview.globex, receivedAt: ago(HOUR), signatureStatus: "unsigned", userId: "usr_globex" },
      { connectionId: overview.globex, receivedAt: ago(25 * HOUR), signatureStatus: "unsigned" },
    );
    newestAcme = ids[1]!;
    await insertRejections(
      { receivedAt: ago(30 * HOUR), reason: "bad_signature" }, // before the last 24 h
      { receivedAt: ago(20 * HOUR), reason: "bad_signature" },
      { receivedAt: ago(3 * HOUR), reason: "bad_signature" },
      { receivedAt: ago(2 * HOUR), reason: "stale_timestamp" },
      { receivedAt: ago(MIN), reason: "bad_signature", eventId: `${TEST_EVENT_ID_PREFIX}x` }, // a refused test delivery
      { connectionId: overview.globex, receivedAt: ago(HOUR), reason: "malformed_json" },
      { connectionId: overview.globex, receivedAt: ago(HOUR), reason: "invalid_envelope" },
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
      lastBadSignatureAt: ago(3 * HOUR).toISOString(),
      lastUnsignedAt: null,
      topRejectionReason24h: { reason: "bad_signature", count: 2 },
      keys: { server: { last4: "0001" } },
    });
    expect(g).toMatchObject({
      name: "Globex",
      events24h: 1,
      unsigned24h: 1,
      rejections24h: 2,
      badSignature24h: 0,
      lastBadSignatureAt: null,
      lastUnsignedAt: ago(HOUR).toISOString(),
      keys: {},
    });
    // A tie is broken by the reason's name, so the card does not change between loads.
    expect(g!.topRejectionReason24h).toEqual({ reason: "invalid_envelope", count: 1 });
    expect(i).toMatchObject({
      name: "Initech",
      events24h: 0,
      rejections24h: 0,
      lastEventAt: null,
      topRejectionReason24h: null,
    });
  });

  it("judges no connection from its refusals: one old refusal is a fact, and the state comes from its alerts", async () => {
    const [a, g, i] = await getConnectionHealth(undefined, now);
    const none = { open: 0, acknowledged: 0 };
    expect(healthVerdict(a!, none)).toMatchObject({ label: "Healthy", tone: "success" });
    expect(healthFacts(a!)).toEqual([{ kind: "bad_signature", count: 2, lastAt: ago(3 * HOUR).toISOString() }]);
    expect(healthVerdict(g!, none)).toMatchObject({ label: "Healthy", tone: "success" });
    expect(healthFacts(g!)).toEqual([{ kind: "unsigned", count: 1, lastAt: ago(HOUR).toISOString() }]);
    expect(healthVerdict(i!, none)).toMatchObject({ label: "No events yet", tone: "neutral" });
    expect(healthFacts(i!)).toEqual([]);
    expect(healthVerdict(a!, { open: 1, acknowledged: 0 })).toMatchObject({ label: "Needs attention", tone: "danger" });
  });

  it("reads only the connections asked for", async () => {
    expect((await getConnectionHealth([overview.globex], now)).map((h) => h.name)).toEqual(["Globex"]);
    expect(await getConnectionHealth([], now)).toEqual([]);
  });

  it("totals every connection's real events and every refusal, the unknown URL's too", async () => {
    const health = await getConnectionHealth(undefined, now);
    expect(await getOverviewTotals(health, now)).toEqual({
      connections: 3,
      events24h: 3,
      rejections24h: 6,
      lastEventAt: ago(HOUR).toISOString(),
    });
  });

  it("counts rejections per UTC day by reason, test deliveries left out", async () => {
    const perDay = await getRejectionsPerDay(now);
    const day = (iso: string) => perDay.days.find((d) => d.day === `${iso}T00:00:00.000Z`)?.bySeries;
    // 30 h and 20 h before 12:30 are yesterday; the rest today.
    expect(day("2025-06-07")).toEqual({ bad_signature: 2 });
    expect(day("2025-06-08")).toEqual({
      bad_signature: 1,
      stale_timestamp: 1,
      malformed_json: 1,
      invalid_envelope: 1,
      unknown_token: 1,
    });
    expect(perDay.total).toBe(7);
    expect(perDay.series).toEqual([
      "unknown_token",
      "bad_signature",
      "stale_timestamp",
      "malformed_json",
      "invalid_envelope",
    ]);
  });

  it("lists the newest real expiries of the last 24 h with their connection", async () => {
    const recent = await getRecentExpiries(8, now);
    expect(recent.map((r) => [r.userId, r.connectionName])).toEqual([
      ["usr_globex", "Globex"],
      ["usr_newest_acme", "Acme"],
    ]);
    expect(recent[1]).toMatchObject({
      id: newestAcme,
      verificationMethod: "PUSH",
      firstReceivedAt: ago(2 * HOUR).toISOString(),
    });
    expect(await getRecentExpiries(1, now)).toHaveLength(1);
  });
});

describe("the latest expiries", () => {
  it("are in expiry order, newest expiry first, whatever order they were received in", async () => {
    await clearEvents();
    await insertEvents(
      { receivedAt: ago(10 * MIN), expiresAt: ago(5 * HOUR), userId: "usr_received_last" },
      { receivedAt: ago(2 * HOUR), expiresAt: ago(2 * HOUR + 5_000), userId: "usr_expired_last" },
      { receivedAt: ago(3 * HOUR), expiresAt: ago(4 * HOUR), userId: "usr_between" },
      { receivedAt: ago(4 * HOUR), expiresAt: null, userId: "usr_no_expiry" },
    );
    expect((await getRecentExpiries(8, now)).map((r) => r.userId)).toEqual([
      "usr_expired_last",
      "usr_between",
      "usr_received_last",
      "usr_no_expiry",
    ]);
    expect((await getRecentExpiries(2, now)).map((r) => r.userId)).toEqual(["usr_expired_last", "usr_between"]);
  });
});

describe("email OTP presence", () => {
  async function insertWithManagementKey(name: string, region: Region, key: string) {
    const id = crypto.randomUUID();
    const token = newWebhookToken(id);
    await overview.db
      .insert(connections)
      .values({ id, name, region, webhookTokenHash: token.hash, webhookTokenCiphertext: token.ciphertext });
    await overview.db.insert(connectionSecrets).values(sealKey(id, "management", key, null));
    return id;
  }

  it("present when the service returns the configuration", async () => {
    const acmeTenant = demoTenant("Acme");
    const id = await insertWithManagementKey("Acme (real key)", acmeTenant.region, acmeTenant.managementKey);
    expect(await getEmailOtpPresence(id)).toEqual({ kind: "present" });
  });

  it("unknown, in words, when the service refuses the key or does not answer in time", async () => {
    const refused = await insertWithManagementKey("Wrong key", "us", "mgmt_key_not_known_0001");
    expect(await getEmailOtpPresence(refused)).toEqual({
      kind: "unknown",
      reason: expect.stringContaining("refused the management key"),
    });
    const silentConnection = await insertWithManagementKey("Silent", "ca", "mgmt_key_silent_0001");
    const started = Date.now();
    expect(await getEmailOtpPresence(silentConnection, 300)).toEqual({
      kind: "unknown",
      reason: "The service did not answer within 0.3 s.",
    });
    expect(Date.now() - started).toBeLessThan(2000);
    // A connection without a management key (or deleted meanwhile) is unknown too, never an error.
    expect(await getEmailOtpPresence(overview.initech)).toEqual({
      kind: "unknown",
      reason: "This connection no longer exists.",
    });
  });
});
