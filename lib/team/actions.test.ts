import { eq } from "drizzle-orm";
import type { Session } from "next-auth";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import type { Database } from "@/lib/db";
import { auditLog, consoleUsers, loginAttempts } from "@/lib/db/schema";
import { setUpTestDatabase } from "@/lib/testing/database";

// Whose session the request carries is next-auth's business (the guards' own tests run its callbacks);
// here it is decided directly, so that each action is called as a support user would call it: directly.
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
let subject: Row;

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
  subject = await insert("subject@example.com", "support");
});
afterAll(() => tearDown());
beforeEach(() => {
  session.current = null;
});

const as = (user: Row) => {
  session.current = {
    expires: "",
    user: { id: user.id, email: user.email, name: user.name, role: user.role },
  } as Session;
};

const everyAction = () => {
  const userId = subject.id;
  return {
    add: () => actions.addTeamMemberAction({ email: "new@example.com", name: "New", role: "admin" }),
    passwordLink: () => actions.createPasswordLinkAction({ userId }),
    changeRole: () => actions.changeRoleAction({ userId, role: "admin" }),
    setDisabled: () => actions.setDisabledAction({ userId, disabled: true }),
    revokeSessions: () => actions.revokeSessionsAction({ userId }),
    unlock: () => actions.unlockSignInAction({ userId }),
  };
};

describe("the team's server actions", () => {
  it("refuse support, called directly, and change nothing", async () => {
    await db.insert(loginAttempts).values({ email: subject.email, ip: "203.0.113.1", succeeded: false });
    as(support);
    for (const [name, call] of Object.entries(everyAction())) {
      expect(await call(), name).toEqual({ ok: false, error: "Only admin users can do this." });
    }
    const [after] = await db.select().from(consoleUsers).where(eq(consoleUsers.id, subject.id));
    expect(after).toEqual(subject);
    expect(await db.select().from(consoleUsers)).toHaveLength(3);
    expect(await db.select().from(loginAttempts)).toHaveLength(1);
    expect(await db.select().from(auditLog)).toEqual([]);
  });

  it("refuse a signed-out caller", async () => {
    for (const call of Object.values(everyAction())) {
      expect(await call()).toEqual({ ok: false, error: "Your session has ended. Sign in again." });
    }
    expect(await db.select().from(auditLog)).toEqual([]);
  });

  it("run for an admin, each audited as that admin", async () => {
    as(admin);
    for (const [name, call] of Object.entries(everyAction())) {
      expect(await call(), name).toMatchObject({ ok: true });
    }
    const records = await db.select().from(auditLog);
    expect(records.map((r) => r.action).sort()).toEqual([
      "user.created",
      "user.disabled",
      "user.password_link_created",
      "user.role_changed",
      "user.sessions_revoked",
      "user.unlocked",
    ]);
    expect(new Set(records.map((r) => r.actorId))).toEqual(new Set([admin.id]));
  });
});
