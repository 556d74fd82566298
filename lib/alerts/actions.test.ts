import crypto from "node:crypto";

import type { Session } from "next-auth";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import type { Database } from "@/lib/db";
import { alertNoticeTargets, alerts, alertThresholds } from "@/lib/db/alerts-schema";
import { auditLog, consoleUsers } from "@/lib/db/schema";
import { startReceiver } from "@/lib/destinations/test-helpers";
import { reloadEnv } from "@/lib/env";
import { encryptSecret } from "@/lib/secrets";
import { setUpTestDatabase } from "@/lib/testing/database";
import { insertTestConnection } from "@/lib/testing/webhooks";

// Each action called as a caller would call it: directly, with the session next-auth would give (the
// guards' own tests run its callbacks). Support and a signed-out caller are refused and change nothing.
const session = vi.hoisted(() => ({ current: null as Session | null }));
vi.mock("next-auth", () => ({ getServerSession: async () => session.current }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));
vi.mock("react", async (original) => ({ ...(await original<typeof import("react")>()), cache: <T>(fn: T) => fn }));

const actions = await import("./actions");

let db: Database;
let tearDown: () => Promise<void>;
type Row = typeof consoleUsers.$inferSelect;
let admin: Row;
let support: Row;
let connectionId: string;
let alertId: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
/** A notice target already there: support's remove and test must leave it be. */
const targetId = crypto.randomUUID();

beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
  const insert = async (email: string, role: "admin" | "support") =>
    (
      await db
        .insert(consoleUsers)
        .values({ email, name: email.split("@")[0]!, role, passwordHash: "$argon2id$placeholder" })
        .returning()
    )[0]!;
  admin = await insert("admin@example.com", "admin");
  support = await insert("support@example.com", "support");
  connectionId = (await insertTestConnection("Alerting")).id;
  const now = new Date();
  const [alert] = await db
    .insert(alerts)
    .values({
      connectionId,
      kind: "bad_signatures",
      openedAt: now,
      lastSeenAt: now,
      measure: { value: 5, threshold: 5, windowMinutes: 15 },
    })
    .returning();
  alertId = alert!.id;
  receiver = await startReceiver();
  const secret = `whsec_${Buffer.alloc(24, 5).toString("base64")}`;
  await db.insert(alertNoticeTargets).values({
    id: targetId,
    name: "Ops chat",
    url: receiver.url,
    secretCiphertext: encryptSecret(secret, { kind: "alert_target_secret", targetId }),
  });
  // The actions take the policy from the environment: the local receiver's host is allowed over http.
  vi.stubEnv("CONSOLE_FORWARD_ALLOWED_HOSTS", "127.0.0.1");
  reloadEnv();
});
afterAll(async () => {
  vi.unstubAllEnvs();
  reloadEnv();
  await receiver.close();
  await tearDown();
});
beforeEach(() => {
  session.current = null;
});

const as = (user: Row) => {
  session.current = {
    expires: "",
    user: { id: user.id, email: user.email, name: user.name, role: user.role },
  } as Session;
};

const targetActions = () => ({
  addTarget: () => actions.addNoticeTargetAction({ name: "Pager", url: receiver.url }),
  testTarget: () => actions.sendTestNoticeAction({ targetId }),
  removeTarget: () => actions.removeNoticeTargetAction({ targetId }),
});

const alertActions = () => ({
  acknowledge: () => actions.acknowledgeAlertAction({ alertId }),
  mute: () => actions.muteAlertAction({ alertId, hours: 4 }),
  unmute: () => actions.unmuteAlertAction({ alertId }),
  setThresholds: () =>
    actions.setThresholdsAction({
      connectionId,
      silenceHours: "",
      badSignatures: 3,
      unsignedEvents: "",
      lateEvents: "",
      receiverErrors: "",
      destinationFailingMinutes: "",
    }),
});

const everyAction = () => ({ ...alertActions(), ...targetActions() });

describe("the alerts' server actions", () => {
  it("refuse support, called directly, and change nothing", async () => {
    as(support);
    for (const [name, call] of Object.entries(everyAction())) {
      expect(await call(), name).toEqual({ ok: false, error: "Only admin users can do this." });
    }
    const [alert] = await db.select().from(alerts);
    expect(alert).toMatchObject({ acknowledgedAt: null, mutedUntil: null });
    expect(await db.select().from(alertThresholds)).toEqual([]);
    expect((await db.select().from(alertNoticeTargets)).map((t) => t.name)).toEqual(["Ops chat"]);
    expect(receiver.received).toEqual([]);
    expect(await db.select().from(auditLog)).toEqual([]);
  });

  it("refuse a signed-out caller", async () => {
    for (const call of Object.values(everyAction())) {
      expect(await call()).toEqual({ ok: false, error: "Your session has ended. Sign in again." });
    }
    expect(await db.select().from(auditLog)).toEqual([]);
  });

  it("name a threshold out of range and save nothing", async () => {
    as(admin);
    const result = await actions.setThresholdsAction({
      connectionId,
      silenceHours: 0,
      badSignatures: "",
      unsignedEvents: "",
      lateEvents: "",
      receiverErrors: "",
      destinationFailingMinutes: "",
    });
    expect(result).toMatchObject({ ok: false, field: "silenceHours" });
    expect(await db.select().from(alertThresholds)).toEqual([]);
  });

  it("run for an admin, each audited as that admin", async () => {
    as(admin);
    for (const [name, call] of Object.entries(alertActions())) {
      expect(await call(), name).toEqual({ ok: true });
    }
    const [alert] = await db.select().from(alerts);
    expect(alert).toMatchObject({ acknowledgedBy: admin.id, mutedUntil: null });
    expect(await db.select().from(alertThresholds)).toMatchObject([
      { connectionId, badSignatures: 3, silenceHours: null },
    ]);
    const records = await db.select().from(auditLog);
    expect(records.map((r) => r.action).sort()).toEqual([
      "alert.acknowledged",
      "alert.muted",
      "alert.thresholds_changed",
      "alert.unmuted",
    ]);
    expect(new Set(records.map((r) => r.actorEmail))).toEqual(new Set([admin.email]));
  });
});

describe("the notice targets' server actions", () => {
  it("add (the secret answered once), test and remove a target for an admin, each audited as that admin", async () => {
    as(admin);
    const added = await targetActions().addTarget();
    expect(added).toMatchObject({ ok: true, name: "Pager", secret: expect.stringMatching(/^whsec_/) });
    expect(await targetActions().testTarget()).toEqual({ ok: true, outcome: "Ops chat answered 200." });
    const [posted] = receiver.received;
    const secret = `whsec_${Buffer.alloc(24, 5).toString("base64")}`;
    expect(new Webhook(secret).verify(posted!.body, posted!.headers as Record<string, string>)).toMatchObject({
      type: "alert.test",
    });
    expect(await targetActions().removeTarget()).toEqual({ ok: true });
    expect((await db.select().from(alertNoticeTargets)).map((t) => t.name)).toEqual(["Pager"]);
    const records = (await db.select().from(auditLog)).filter((r) => r.action.startsWith("alert.target_"));
    expect(records.map((r) => [r.action, r.target, r.actorEmail])).toEqual([
      ["alert.target_added", "Pager", admin.email],
      ["alert.target_tested", "Ops chat", admin.email],
      ["alert.target_removed", "Ops chat", admin.email],
    ]);
  });
});
