import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { asc, eq } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { withTestPglite } from "@/lib/testing/database";
import { auditLog, consoleUsers, loginAttempts } from "@/lib/db/schema";
import { createUser } from "@/lib/auth/users";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "users-cli-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function users(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)("node_modules/.bin/tsx", ["--conditions=react-server", "scripts/users.ts", ...args], {
      env: { ...process.env, CONSOLE_DATA_DIR: dataDir, DATABASE_URL: "" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const withDatabase = <T>(fn: (db: Database) => Promise<T>) => withTestPglite(path.join(dataDir, "pglite"), fn);

it("revoke-sessions, set-role and unlock change the user, end its sessions, and are audited; bad input is refused", { timeout: 180_000 }, async () => {
  const t0 = new Date();
  await withDatabase(async (db) => {
    await createUser({ email: "ada@example.com", name: "Ada", role: "admin", password: "long-enough-password" });
    await db.insert(loginAttempts).values(
      Array.from({ length: 6 }, (_, i) => ({ email: "ada@example.com", ip: `198.51.100.${i % 2}`, succeeded: false, attemptedAt: t0 })),
    );
  });

  expect(await users("revoke-sessions", "--email", "ADA@example.com")).toMatchObject({ code: 0, stdout: "Ended every session of ADA@example.com.\n" });
  expect(await users("set-role", "--email", "ada@example.com", "--role", "support")).toMatchObject({
    code: 0,
    stdout: "ada@example.com is now support; their sessions have ended.\n",
  });
  expect(await users("unlock", "--email", "ada@example.com")).toMatchObject({
    code: 0,
    stdout: "Cleared 6 failed sign-in attempts for ada@example.com; it may sign in again from every address.\n",
  });
  expect(await users("set-role", "--email", "ada@example.com", "--role", "owner")).toMatchObject({ code: 1, stderr: expect.stringContaining("--role must be admin or support.") });
  expect(await users("revoke-sessions", "--email", "nobody@example.com")).toMatchObject({ code: 1, stderr: expect.stringContaining("No user with the email") });

  await withDatabase(async (db) => {
    const [ada] = await db.select().from(consoleUsers).where(eq(consoleUsers.email, "ada@example.com"));
    expect(ada).toMatchObject({ role: "support", disabled: false, sessionVersion: 3 });
    expect(await db.select().from(loginAttempts)).toEqual([]);
    const audit = await db.select().from(auditLog).orderBy(asc(auditLog.id));
    expect(audit.map((a) => [a.action, a.actorEmail, a.target, a.details])).toEqual([
      ["user.sessions_revoked", "cli", "ADA@example.com", null],
      ["user.role_changed", "cli", "ada@example.com", { role: "support" }],
      ["user.unlocked", "cli", "ada@example.com", { cleared: 6 }],
    ]);
  });
});
