import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";

import { and, eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { STORY_INCIDENTS, type RunningEmulator } from "@/emulator/server";
import { getThresholds, listAlerts } from "@/lib/alerts/alerts";
import { evaluateAlerts } from "@/lib/alerts/evaluate";
import { sendDueNotices } from "@/lib/alerts/notice-sender";
import { refuseBadSignatures } from "@/lib/alerts/test-helpers";
import type { Database } from "@/lib/db";
import { webhookEvents, webhookRejections } from "@/lib/db/schema";
import { reloadEnv } from "@/lib/env";
import { getDelayHistogram, getExpiredPerHour, getRejectionsPerDay } from "@/lib/overview/charts";
import { setUpTestDatabase } from "@/lib/testing/database";
import { emulatorControl, startTestEmulator } from "@/lib/testing/emulator";
import { receiveWebhook } from "@/lib/webhooks/receive";
import { startNoticeSink } from "@/tooling/notice-sink";
import { seedDemoConnections } from "@/tooling/seed-connections";
import { pointEmulatorAtConsole } from "@/tooling/seed-webhooks";

import { DEMO_ALERTS, demoAlertEnv, demoAlertSecret, seedDemoAlertThresholds } from "./demo-alerts";
import { backfillDemoHistory, DEMO_HISTORY } from "./demo-history";
import { startDemoStack } from "./demo-stack";

let emulator: RunningEmulator;
let db: Database;
let tearDown: () => Promise<void>;
let connections: Awaited<ReturnType<typeof seedDemoConnections>>;

// The console's own receiver (lib/webhooks/receive.ts) behind a plain HTTP server, as the route handler serves it.
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", async () => {
    const headers = new Headers(
      Object.entries(req.headers).flatMap(([k, v]) => (typeof v === "string" ? [[k, v] as [string, string]] : [])),
    );
    const request = new Request(new URL(req.url ?? "/", "http://127.0.0.1"), {
      method: req.method,
      headers,
      body: Buffer.concat(chunks),
    });
    const response = await receiveWebhook(request);
    res.writeHead(response.status, { "content-type": "application/json" }).end(await response.text());
  });
});

beforeAll(async () => {
  emulator = await startTestEmulator();
  ({ db, tearDown } = await setUpTestDatabase());
  connections = await seedDemoConnections();
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await tearDown();
  await emulator.close();
});

const count = async (table: typeof webhookEvents | typeof webhookRejections, where?: ReturnType<typeof sql>) =>
  (
    await db
      .select({ n: sql<number>`count(*)::int` })
      .from(table)
      .where(where)
  )[0]!.n;

describe("npm run demo's data", () => {
  it("the backfilled week fills every chart of the overview: expiries per hour, every delay bucket, rejections by day", async () => {
    const now = new Date();
    const loaded = await backfillDemoHistory(connections, now);
    expect(loaded).toMatchObject({ events: DEMO_HISTORY.events, rejections: DEMO_HISTORY.rejections });
    // Told apart from live events by their ids (a few are test events, as the bulk loader makes them).
    expect(
      await count(
        webhookEvents,
        sql`not ${like(webhookEvents.eventId, "demo-history-%")} and not ${webhookEvents.isTest}`,
      ),
    ).toBe(0);
    // Each row carries its tenant's id, in its column and its body, as the service would send it: none
    // keeps the one the loader made up, the loader's few test events included.
    expect(
      await count(
        webhookEvents,
        sql`${webhookEvents.tenantId} not in (${sql.join(
          connections.map((c) => sql`${c.tenantId}`),
          sql`, `,
        )})`,
      ),
    ).toBe(0);
    const rows = await db
      .select({
        connectionId: webhookEvents.connectionId,
        tenantId: webhookEvents.tenantId,
        rawBody: webhookEvents.rawBody,
      })
      .from(webhookEvents)
      .limit(200);
    for (const row of rows) {
      const tenantId = connections.find((c) => c.id === row.connectionId)!.tenantId;
      expect(row.tenantId).toBe(tenantId);
      expect(JSON.parse(row.rawBody)).toMatchObject({
        version: 1,
        tenantId,
        data: { userId: expect.any(String), expiresAt: expect.any(String) },
      });
    }

    const perHour = await getExpiredPerHour(now);
    expect(perHour.total).toBeGreaterThan(DEMO_HISTORY.events * 0.8);
    expect(perHour.series.length).toBeGreaterThanOrEqual(6);
    expect(perHour.hours.filter((hour) => hour.total > 0).length).toBeGreaterThan(150); // nearly every hour of the week
    const delays = await getDelayHistogram(now);
    expect(delays.buckets.filter((bucket) => bucket.count === 0)).toEqual([]);
    expect(delays.late).toBeGreaterThan(0);
    const rejections = await getRejectionsPerDay(now);
    // The chart's days are UTC days, today's included: the oldest hours of the week may fall before them.
    expect(rejections.total).toBeGreaterThan(DEMO_HISTORY.rejections * 0.7);
    expect(rejections.days.filter((day) => day.total > 0).length).toBeGreaterThanOrEqual(5);
  });

  it("the story, through the console's receiver: the rotated-key burst is refused as bad_signature, the outage is caught up by retries", async () => {
    const [acme, globex] = connections;
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    await pointEmulatorAtConsole(emulator.url, receiverUrl, connections);
    const before = await count(webhookEvents);
    await emulatorControl(emulator, "story", "POST", { durationSeconds: 120 });
    // Two minutes of the story and the retries after it, in ticks of 2 s, as the demo's timer would.
    for (let second = 0; second < 240; second += 2)
      await emulatorControl(emulator, "clock/advance", "POST", { seconds: 2 });

    type Attempt = { eventId: string; tenantId: string; attempt: number; statusCode: number | null };
    const attempts = await emulatorControl<Attempt[]>(emulator, "deliveries");
    const eventIds = [...new Set(attempts.map((a) => a.eventId))];
    // Every event the story made is stored exactly once, however many attempts it took.
    expect(eventIds.length).toBeGreaterThan(40);
    expect(await count(webhookEvents)).toBe(before + eventIds.length);

    // The burst: refused by the real receiver as bad_signature on the first tenant, each one stored on its retry.
    const refused = await db
      .select({ eventId: webhookRejections.eventId, status: webhookRejections.status })
      .from(webhookRejections)
      .where(and(eq(webhookRejections.reason, "bad_signature"), like(webhookRejections.eventId, "%-%-%-%-%")));
    expect(refused.length).toBeGreaterThanOrEqual(STORY_INCIDENTS.badSignatures.burst);
    expect(refused.every((r) => r.status === 401)).toBe(true);
    for (const { eventId } of refused) {
      const [stored] = await db
        .select({ connectionId: webhookEvents.connectionId })
        .from(webhookEvents)
        .where(eq(webhookEvents.eventId, eventId!));
      expect(stored?.connectionId).toBe(acme!.id);
    }

    // The outage: the second tenant's attempts got 503 (never reaching the console) and went through on a retry.
    const failed = attempts.filter((a) => a.statusCode === 503);
    expect(failed.length).toBeGreaterThanOrEqual(5);
    expect(new Set(failed.map((a) => a.tenantId))).toEqual(new Set([globex!.tenantId]));
    for (const { eventId } of failed)
      expect(attempts.filter((a) => a.eventId === eventId).at(-1)!.statusCode).toBe(200);
    const caughtUp = await count(
      webhookEvents,
      sql`${webhookEvents.eventId} in (${sql.join(
        failed.map((a) => sql`${a.eventId}`),
        sql`, `,
      )})`,
    );
    expect(caughtUp).toBe(new Set(failed.map((a) => a.eventId)).size);

    // Late reports: some of the story's events arrive hours, and one over a day, after their expiry.
    const late = await db
      .select({
        hours: sql<number>`extract(epoch from ${webhookEvents.firstReceivedAt} - ${webhookEvents.expiresAt}) / 3600`,
      })
      .from(webhookEvents)
      .where(
        sql`not ${like(webhookEvents.eventId, "demo-history-%")} and ${webhookEvents.firstReceivedAt} - ${webhookEvents.expiresAt} > interval '1 hour'`,
      );
    expect(late.some((row) => row.hours >= 1 && row.hours < 6)).toBe(true);
    expect(late.some((row) => row.hours >= 24)).toBe(true);
  });
});

describe("npm run demo's alerts", () => {
  it("the first connection's lowered threshold turns a burst the size of the story's into an alert, whose notices reach the sink signed, and by email", async () => {
    const [acme, globex] = connections;
    const secret = demoAlertSecret();
    const sink = await startNoticeSink({ webhookPort: 0, smtpPort: 0, secret });
    try {
      // The console's settings as the demo stack passes them.
      for (const [name, value] of Object.entries({
        ...demoAlertEnv(sink, secret),
        CONSOLE_FORWARD_ALLOWED_HOSTS: "127.0.0.1",
      }))
        vi.stubEnv(name, value);
      reloadEnv();
      await seedDemoAlertThresholds(acme!);
      expect((await getThresholds(acme!.id)).set).toMatchObject(DEMO_ALERTS.thresholds);
      expect(Object.values((await getThresholds(globex!.id)).set).every((value) => value === null)).toBe(true);

      // The story's burst, on each connection: only the first one's threshold (3, not the default 5) is reached.
      for (const { webhookToken } of [acme!, globex!]) {
        await refuseBadSignatures(
          webhookToken,
          new Date(),
          STORY_INCIDENTS.badSignatures.burst,
          "demo_srv_rotated_at_the_service_0000000001",
        );
      }
      expect(await evaluateAlerts()).toMatchObject({ ran: true });
      const { alerts } = await listAlerts({
        connectionId: "all",
        kind: "bad_signatures",
        state: "open",
        muted: "all",
        limit: 50,
      });
      expect(alerts.map((alert) => alert.connection.name)).toEqual([acme!.name]);
      expect(alerts[0]!.measure).toMatchObject({ threshold: DEMO_ALERTS.thresholds.badSignatures });

      // Sent through the guarded client (127.0.0.1 allowed), verified by the sink with the run's secret; and by SMTP.
      while ((await sendDueNotices()) > 0);
      const subject = expect.stringMatching(new RegExp(`^Alert: Signatures refused on ${acme!.name} \\(`));
      expect(sink.notices).toContainEqual(
        expect.objectContaining({ type: "alert.opened", subject, verified: true, answered: 200 }),
      );
      expect(sink.notices.filter((notice) => !notice.verified)).toEqual([]);
      expect(sink.mails).toContainEqual(expect.objectContaining({ subject, to: [DEMO_ALERTS.emailTo] }));
    } finally {
      vi.unstubAllEnvs();
      reloadEnv();
      await sink.stop();
    }
  });
});

describe("npm run demo's ports", () => {
  it("refuses a port that fetch blocks, naming its variable, before anything starts", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "demo-ports-"));
    fs.writeFileSync(path.join(dataDir, "kept"), "");
    const logFile = path.join(dataDir, "log", "demo.log");
    const ports = {
      console: { port: 3100, env: "PORT" },
      emulator: { port: 4110, env: "EMULATOR_PORT" },
      oidc: { port: 4120, env: "OIDC_PORT" },
      tenantApp: { port: 4150, env: "TENANT_APP_PORT" },
      notices: { port: 4160, env: "NOTICE_PORT" },
      smtp: { port: 4125, env: "SMTP_PORT" },
    };
    try {
      // 4190 is free on this machine, but Node's fetch (the demo's health check) refuses to connect to it.
      await expect(
        startDemoStack({ ...ports, emulator: { port: 4190, env: "EMULATOR_PORT" }, dataDir, logFile }),
      ).rejects.toThrow(/^EMULATOR_PORT=4190 is a port that browsers and Node's fetch refuse to connect to/);
      // The notice sink's page is opened in a browser, and the console posts to it with fetch: checked alike.
      await expect(
        startDemoStack({ ...ports, notices: { port: 6000, env: "NOTICE_PORT" }, dataDir, logFile }),
      ).rejects.toThrow(/^NOTICE_PORT=6000 is a port that browsers and Node's fetch refuse to connect to/);
      // Nothing started: the data folder was not wiped and no log was opened.
      expect(fs.existsSync(path.join(dataDir, "kept"))).toBe(true);
      expect(fs.existsSync(logFile)).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
