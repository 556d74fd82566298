import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Session } from "next-auth";
import { alerts, alertThresholds } from "@/lib/db/alerts-schema";
import { auditLog, consoleUsers } from "@/lib/db/schema";
import type { Database } from "@/lib/db";
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

beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
  const insert = async (email: string, role: "admin" | "support") =>
    (await db.insert(consoleUsers).values({ email, name: email.split("@")[0]!, role, passwordHash: "$argon2id$placeholder" }).returning())[0]!;
  admin = await insert("admin@example.com", "admin");
  support = await insert("support@example.com", "support");
  connectionId = (await insertTestConnection("Alerting")).id;
  const now = new Date();
  const [alert] = await db
    .insert(alerts)
    .values({ connectionId, kind: "bad_signatures", openedAt: now, lastSeenAt: now, measure: { value: 5, threshold: 5, windowMinutes: 15 } })
    .returning();
  alertId = alert!.id;
});
afterAll(() => tearDown());
beforeEach(() => {
  session.current = null;
});

const as = (user: Row) => {
  session.current = { expires: "", user: { id: user.id, email: user.email, name: user.name, role: user.role } } as Session;
};

const everyAction = () => ({
  acknowledge: () => actions.acknowledgeAlertAction({ alertId }),
  mute: () => actions.muteAlertAction({ alertId, hours: 4 }),
  unmute: () => actions.unmuteAlertAction({ alertId }),
  setThresholds: () =>
    actions.setThresholdsAction({ connectionId, silenceHours: "", badSignatures: 3, unsignedEvents: "", lateEvents: "", receiverErrors: "", destinationFailingMinutes: "" }),
});

describe("the alerts' server actions", () => {
  it("refuse support, called directly, and change nothing", async () => {
    as(support);
    for (const [name, call] of Object.entries(everyAction())) {
      expect(await call(), name).toEqual({ ok: false, error: "Only admin users can do this." });
    }
    const [alert] = await db.select().from(alerts);
    expect(alert).toMatchObject({ acknowledgedAt: null, mutedUntil: null });
    expect(await db.select().from(alertThresholds)).toEqual([]);
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
    const result = await actions.setThresholdsAction({ connectionId, silenceHours: 0, badSignatures: "", unsignedEvents: "", lateEvents: "", receiverErrors: "", destinationFailingMinutes: "" });
    expect(result).toMatchObject({ ok: false, field: "silenceHours" });
    expect(await db.select().from(alertThresholds)).toEqual([]);
  });

  it("run for an admin, each audited as that admin", async () => {
    as(admin);
    for (const [name, call] of Object.entries(everyAction())) {
      expect(await call(), name).toEqual({ ok: true });
    }
    const [alert] = await db.select().from(alerts);
    expect(alert).toMatchObject({ acknowledgedBy: admin.id, mutedUntil: null });
    expect(await db.select().from(alertThresholds)).toMatchObject([{ connectionId, badSignatures: 3, silenceHours: null }]);
    const records = await db.select().from(auditLog);
    expect(records.map((r) => r.action).sort()).toEqual(["alert.acknowledged", "alert.muted", "alert.thresholds_changed", "alert.unmuted"]);
    expect(new Set(records.map((r) => r.actorEmail))).toEqual(new Set([admin.email]));
  });
});
