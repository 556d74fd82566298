import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { rowsOf, type Database } from "@/lib/db";
import { alertEvaluations, alerts } from "@/lib/db/alerts-schema";
import { forwardDestinations } from "@/lib/db/forwarding-schema";
import { auditLog, webhookRejections } from "@/lib/db/schema";
import { reloadEnv } from "@/lib/env";
import { setUpTestDatabase } from "@/lib/testing/database";
import { insertTestConnection } from "@/lib/testing/webhooks";
import { KEY1, KEY2 } from "@/lib/webhooks/test-helpers";

import { acknowledgeAlert, getThresholds, listAlerts, listOpenAlerts, muteAlert, setThresholds } from "./alerts";
import { evaluateAlerts } from "./evaluate";
import { alertsOf, minutesAfter, noticesOf, receiveAt, receiveUnsigned, refuseBadSignatures } from "./test-helpers";

// The evaluator on a real database: webhooks go through the real receiver at chosen instants, and each
// evaluation runs at an instant the test names, as the emulator's virtual clock moves time on.

const admin = { id: null, email: "admin@example.com" };
const everything = { connectionId: "all", kind: "all", state: "all", muted: "all", limit: 50 } as const;
let db: Database;
let tearDown: () => Promise<void>;

beforeAll(async () => {
  // Two notice targets, so each change queues two notices (never sent here: ./notices.test.ts sends them).
  vi.stubEnv("CONSOLE_ALERT_WEBHOOK_URLS", "http://127.0.0.1:9/a,http://127.0.0.1:9/b");
  vi.stubEnv("CONSOLE_ALERT_WEBHOOK_SECRET", `whsec_${Buffer.alloc(24, 7).toString("base64")}`);
  reloadEnv();
  ({ db, tearDown } = await setUpTestDatabase());
});
afterAll(async () => {
  vi.unstubAllEnvs();
  reloadEnv();
  await tearDown();
});
// Every evaluation looks at every connection: each test starts with none, and no alert.
afterEach(async () => {
  await db.execute(sql`delete from connections`);
  await db.execute(sql`delete from alert_evaluations`);
});

const noticeChanges = async (alertId: string) => (await noticesOf(alertId)).map((n) => n.change);

describe("a rotated server key (bad signatures)", () => {
  it("opens one alert, updates it while the refusals go on, and resolves it 15 min after they stop, with one notice each way", async () => {
    const connection = await insertTestConnection("Rotated", [KEY1]);
    const t0 = new Date();
    await refuseBadSignatures(connection.token, t0, 5, KEY2);

    expect(await evaluateAlerts({ now: minutesAfter(t0, 1) })).toMatchObject({ ran: true, opened: 1 });
    expect(await evaluateAlerts({ now: minutesAfter(t0, 2) })).toMatchObject({ ran: true, opened: 0, updated: 1 });
    const [alert] = await alertsOf(connection.id);
    expect(alert).toMatchObject({
      kind: "bad_signatures",
      state: "open",
      measure: { value: 5, threshold: 5, windowMinutes: 15 },
    });
    expect(alert!.lastSeenAt.getTime()).toBe(minutesAfter(t0, 2).getTime());

    // The refusals leave the 15-minute window: clear, but held open for 15 minutes more.
    expect(await evaluateAlerts({ now: minutesAfter(t0, 16) })).toMatchObject({ cleared: 1, resolved: 0 });
    expect(await evaluateAlerts({ now: minutesAfter(t0, 30) })).toMatchObject({ resolved: 0 });
    expect(await evaluateAlerts({ now: minutesAfter(t0, 31) })).toMatchObject({ resolved: 1 });
    expect(await evaluateAlerts({ now: minutesAfter(t0, 32) })).toMatchObject({ opened: 0, resolved: 0 });

    const [resolved, ...others] = await alertsOf(connection.id);
    expect(others).toHaveLength(0);
    expect(resolved).toMatchObject({ state: "resolved", resolvedAt: minutesAfter(t0, 31) });
    expect(await noticeChanges(resolved!.id)).toEqual(["opened", "opened", "resolved", "resolved"]);
  });

  it("stays below its threshold at 4 refusals, and a connection's own threshold moves it", async () => {
    const connection = await insertTestConnection("Below", [KEY1]);
    const t0 = new Date();
    await refuseBadSignatures(connection.token, t0, 4, KEY2);
    await evaluateAlerts({ now: minutesAfter(t0, 1) });
    expect(await alertsOf(connection.id)).toHaveLength(0);

    expect(await setThresholds(admin, { connectionId: connection.id, badSignatures: 4 })).toEqual({ ok: true });
    await evaluateAlerts({ now: minutesAfter(t0, 2) });
    expect(await alertsOf(connection.id)).toMatchObject([
      { kind: "bad_signatures", measure: { value: 4, threshold: 4 } },
    ]);
  });

  it("holds a flapping condition open: refusals that stop and start again within 15 min send no second notice", async () => {
    const connection = await insertTestConnection("Flapping", [KEY1]);
    const t0 = new Date(Date.now() - 40 * 60_000);
    await refuseBadSignatures(connection.token, t0, 5, KEY2);
    await evaluateAlerts({ now: minutesAfter(t0, 1) });
    await evaluateAlerts({ now: minutesAfter(t0, 16) }); // clear
    await refuseBadSignatures(connection.token, minutesAfter(t0, 20), 5, KEY2);
    await evaluateAlerts({ now: minutesAfter(t0, 21) }); // firing again before the hold ended
    const [alert, ...others] = await alertsOf(connection.id);
    expect(others).toHaveLength(0);
    expect(alert).toMatchObject({ state: "open", clearSince: null });
    expect(await noticeChanges(alert!.id)).toEqual(["opened", "opened"]);
  });
});

describe("the other conditions", () => {
  it("opens a silence alert when no event came for 2 h in hours that had events yesterday, and resolves it", async () => {
    const connection = await insertTestConnection("Silent");
    const now = new Date();
    expect(await receiveAt(connection.token, new Date(now.getTime() - 25 * 3_600_000))).toBe(200);
    await evaluateAlerts({ now });
    expect(await alertsOf(connection.id)).toMatchObject([{ kind: "silence", measure: { value: 25, threshold: 2 } }]);

    // An event arrives: clear at once, resolved 15 min later.
    expect(await receiveAt(connection.token, minutesAfter(now, 1))).toBe(200);
    await evaluateAlerts({ now: minutesAfter(now, 2) });
    await evaluateAlerts({ now: minutesAfter(now, 18) });
    expect(await alertsOf(connection.id)).toMatchObject([{ kind: "silence", state: "resolved" }]);
  });

  it("opens no silence alert while events keep arriving, nor for a connection that had no traffic in those hours", async () => {
    const busy = await insertTestConnection("Busy");
    const quietAtNight = await insertTestConnection("Quiet at night");
    const now = new Date();
    await receiveAt(busy.token, new Date(now.getTime() - 25 * 3_600_000));
    await receiveAt(busy.token, minutesAfter(now, -30));
    // Traffic yesterday, but 6 to 3 hours earlier in the day than now: not in the 2 hours that are quiet today.
    await receiveAt(quietAtNight.token, new Date(now.getTime() - 30 * 3_600_000));
    await evaluateAlerts({ now });
    expect(await alertsOf(busy.id)).toHaveLength(0);
    expect(await alertsOf(quietAtNight.id)).toHaveLength(0);
  });

  it("opens an alert for unsigned deliveries on a connection that holds a server key, apart from bad signatures", async () => {
    const connection = await insertTestConnection("Unsigned", [KEY1]);
    const now = new Date();
    expect(await receiveUnsigned(connection.token, now)).toBe(401);
    await evaluateAlerts({ now: minutesAfter(now, 1) });
    expect(await alertsOf(connection.id)).toMatchObject([{ kind: "unsigned_events", measure: { value: 1 } }]);
  });

  it("opens an alert for events delivered more than 24 h after expiring", async () => {
    const connection = await insertTestConnection("Late");
    const now = new Date();
    await receiveAt(connection.token, now, [], { expiresAt: new Date(now.getTime() - 30 * 3_600_000).toISOString() });
    await receiveAt(connection.token, now, [], { expiresAt: new Date(now.getTime() - 3_600_000).toISOString() });
    await evaluateAlerts({ now: minutesAfter(now, 1) });
    expect(await alertsOf(connection.id)).toMatchObject([{ kind: "late_events", measure: { value: 1 } }]);
  });

  it("opens an alert for receiver errors: deliveries answered 5xx in the last hour", async () => {
    const connection = await insertTestConnection("Erring");
    const now = new Date();
    await db.insert(webhookRejections).values({
      connectionId: connection.id,
      receivedAt: now,
      status: 503,
      reason: "receiver_error",
      bodySha256: "0",
      headers: {},
    });
    await evaluateAlerts({ now: minutesAfter(now, 1) });
    expect(await alertsOf(connection.id)).toMatchObject([{ kind: "receiver_errors", measure: { value: 1 } }]);
  });

  it("a destination failing for an hour, and one paused, each an alert of its own; one turned off is none", async () => {
    const connection = await insertTestConnection("Forwarding");
    const now = new Date();
    const destination = (name: string, values: Partial<typeof forwardDestinations.$inferInsert>) =>
      db
        .insert(forwardDestinations)
        .values({ connectionId: connection.id, name, url: "https://app.example.test/hooks", ...values })
        .returning();
    const [failing] = await destination("Failing", { failingSince: minutesAfter(now, -61) });
    const [paused] = await destination("Paused", {
      failingSince: minutesAfter(now, -25 * 60),
      pausedAt: minutesAfter(now, -60),
    });
    await destination("Recent", { failingSince: minutesAfter(now, -10) });
    await destination("Off", { enabled: false, failingSince: minutesAfter(now, -600) });
    await evaluateAlerts({ now });
    const found = await alertsOf(connection.id);
    expect(found.map((a) => [a.kind, a.subject]).sort()).toEqual(
      [
        ["destination_failing", failing!.id],
        ["destination_failing", paused!.id],
      ].sort(),
    );
    const { alerts: listed } = await listAlerts({ ...everything, connectionId: connection.id });
    expect(listed.map((a) => a.summary).sort()).toEqual([
      "Destination Failing has failed every attempt for 61 minutes (threshold 60 min).",
      "Destination Paused was paused after a day of failed attempts: nothing is sent to it until it is resumed.",
    ]);
  });

  it("a destination at a threshold of 0 opens at its first failure, and resolves after CONSOLE_ALERT_HOLD_SECONDS once it delivers", async () => {
    const connection = await insertTestConnection("First failure");
    expect(await setThresholds(admin, { connectionId: connection.id, destinationFailingMinutes: 0 })).toEqual({
      ok: true,
    });
    const t0 = new Date();
    const [app] = await db
      .insert(forwardDestinations)
      .values({
        connectionId: connection.id,
        name: "App",
        url: "https://app.example.test/hooks",
        failingSince: new Date(t0.getTime() - 10_000),
      })
      .returning();
    expect(await evaluateAlerts({ now: t0 })).toMatchObject({ opened: 1 });
    const { alerts: listed } = await listAlerts({ ...everything, connectionId: connection.id });
    expect(listed.map((a) => a.summary)).toEqual([
      "Destination App has failed every attempt for less than a minute (threshold 0 min).",
    ]);

    // A delivered attempt clears it; with a hold of 30 s it resolves at the first evaluation 30 s after.
    await db.update(forwardDestinations).set({ failingSince: null }).where(eq(forwardDestinations.id, app!.id));
    vi.stubEnv("CONSOLE_ALERT_HOLD_SECONDS", "30");
    reloadEnv();
    try {
      expect(await evaluateAlerts({ now: minutesAfter(t0, 1) })).toMatchObject({ cleared: 1, resolved: 0 });
      const { alerts: clearing } = await listAlerts({ ...everything, connectionId: connection.id });
      expect(clearing.map((a) => a.summary)).toEqual([
        "When last seen: Destination App had failed every attempt for less than a minute (threshold 0 min).",
      ]);
      expect(await evaluateAlerts({ now: new Date(minutesAfter(t0, 1).getTime() + 20_000) })).toMatchObject({
        resolved: 0,
      });
      expect(await evaluateAlerts({ now: new Date(minutesAfter(t0, 1).getTime() + 30_000) })).toMatchObject({
        resolved: 1,
      });
    } finally {
      vi.stubEnv("CONSOLE_ALERT_HOLD_SECONDS", "900");
      reloadEnv();
    }
    const [alert] = await alertsOf(connection.id);
    expect(await noticeChanges(alert!.id)).toEqual(["opened", "opened", "resolved", "resolved"]);
    // Resolved, it reads as it stood when last seen, not as if still failing.
    const { alerts: resolved } = await listAlerts({ ...everything, connectionId: connection.id });
    expect(resolved.map((a) => [a.state, a.summary])).toEqual([
      [
        "resolved",
        "When last seen: Destination App had failed every attempt for less than a minute (threshold 0 min).",
      ],
    ]);
    const resolvedNotice = (await noticesOf(alert!.id)).find((n) => n.change === "resolved")!;
    expect(JSON.parse(resolvedNotice.body).text).toContain("It was: Destination App had failed every attempt");
  });
});

describe("the lifecycle", () => {
  async function openAlert(name: string, at: Date) {
    const connection = await insertTestConnection(name, [KEY1]);
    await refuseBadSignatures(connection.token, at, 5, KEY2);
    await evaluateAlerts({ now: at });
    const [alert] = await alertsOf(connection.id);
    return { connection, alert: alert! };
  }

  it("reminds every 6 h while open and unacknowledged; an acknowledged one is not reminded, and says who", async () => {
    const t0 = new Date();
    const { connection, alert } = await openAlert("Reminded", t0);
    // Keep the condition true at each later evaluation by refusing again just before it.
    const at = async (hours: number) => {
      const now = new Date(t0.getTime() + hours * 3_600_000);
      await refuseBadSignatures(connection.token, minutesAfter(now, -1), 5, KEY2);
      await evaluateAlerts({ now });
    };
    await at(5);
    expect(await noticeChanges(alert.id)).toEqual(["opened", "opened"]);
    await at(6);
    expect(await noticeChanges(alert.id)).toEqual(["opened", "opened", "reminder", "reminder"]);

    const [user] = rowsOf<{ id: string }>(
      await db.execute(
        sql`insert into console_users (email, name, role, password_hash) values ('ack@example.com', 'Ann Ack', 'admin', 'x') returning id`,
      ),
    );
    expect(await acknowledgeAlert({ id: user!.id, email: "ack@example.com" }, { alertId: alert.id })).toEqual({
      ok: true,
    });
    await at(13);
    expect(await noticeChanges(alert.id)).toHaveLength(4);
    const {
      alerts: [listed],
    } = await listAlerts({ ...everything, connectionId: connection.id });
    expect(listed).toMatchObject({ acknowledgedBy: "Ann Ack", state: "open" });
    const audit = await db.select().from(auditLog).where(eq(auditLog.connectionId, connection.id));
    expect(audit.map((a) => a.action)).toContain("alert.acknowledged");
  });

  it("a muted alert leaves the banner's list and sends no reminder until the mute ends", async () => {
    const t0 = new Date();
    const { alert } = await openAlert("Muted", t0);
    expect((await listOpenAlerts()).map((a) => a.id)).toContain(alert.id);
    expect(await muteAlert(admin, { alertId: alert.id, hours: 4 })).toEqual({ ok: true });
    expect((await listOpenAlerts()).map((a) => a.id)).not.toContain(alert.id);
    expect(await muteAlert(admin, { alertId: alert.id, hours: 5 })).toEqual({
      ok: false,
      error: "must be one of 1, 4, 24, 168 hours",
    });
    expect((await listOpenAlerts(new Date(Date.now() + 5 * 3_600_000))).map((a) => a.id)).toContain(alert.id);
  });

  it("refuses a threshold out of range, naming it, and saves nothing; an empty one is the default", async () => {
    const connection = await insertTestConnection("Thresholds");
    expect(await setThresholds(admin, { connectionId: connection.id, silenceHours: 0 })).toEqual({
      ok: false,
      error: "Silence after: a whole number from 1 to 72, or empty for the default",
      field: "silenceHours",
    });
    expect(await setThresholds(admin, { connectionId: connection.id, badSignatures: "2.5" })).toMatchObject({
      ok: false,
      field: "badSignatures",
    });
    expect((await getThresholds(connection.id)).set.silenceHours).toBeNull();
    expect(await setThresholds(admin, { connectionId: connection.id, silenceHours: "6", badSignatures: "" })).toEqual({
      ok: true,
    });
    const thresholds = await getThresholds(connection.id);
    expect(thresholds.values).toMatchObject({ silenceHours: 6, badSignatures: 5 });
    expect(thresholds.set).toMatchObject({ silenceHours: 6, badSignatures: null });
    const [record] = await db.select().from(auditLog).where(eq(auditLog.action, "alert.thresholds_changed"));
    expect(record?.details).toMatchObject({ after: { silenceHours: 6, badSignatures: null } });
  });
});

describe("several instances", () => {
  it("two evaluations at once: one runs, the other skips (the lock), and the alert and its notices are written once", async () => {
    const connection = await insertTestConnection("Two instances", [KEY1]);
    const now = new Date();
    await refuseBadSignatures(connection.token, now, 5, KEY2);
    const outcomes = await Promise.all([
      evaluateAlerts({ now: minutesAfter(now, 1) }),
      evaluateAlerts({ now: minutesAfter(now, 1) }),
    ]);
    // On PostgreSQL the second finds the lock taken; PGlite runs one transaction at a time, so it runs after and finds
    // the alert open.
    expect(outcomes.filter((o) => o.ran && o.opened === 1)).toHaveLength(1);
    const [alert, ...others] = await alertsOf(connection.id);
    expect(others).toHaveLength(0);
    expect(await noticeChanges(alert!.id)).toEqual(["opened", "opened"]);
  });

  it("an evaluation within the period of another instance's is skipped", async () => {
    const now = new Date();
    expect(await evaluateAlerts({ now, minGapMs: 48_000 })).toMatchObject({ ran: true });
    expect(await evaluateAlerts({ now: new Date(now.getTime() + 30_000), minGapMs: 48_000 })).toEqual({
      ran: false,
      reason: "recent",
    });
    expect(await evaluateAlerts({ now: new Date(now.getTime() + 60_000), minGapMs: 48_000 })).toMatchObject({
      ran: true,
    });
    const [row] = await db.select().from(alertEvaluations);
    expect(row?.finishedAt?.getTime()).toBe(now.getTime() + 60_000);
    expect(await db.select().from(alerts)).toHaveLength(0);
  });
});
