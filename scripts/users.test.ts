import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";

import { createUser } from "@/lib/auth/users";
import type { Database } from "@/lib/db";
import { auditLog, consoleUsers, loginAttempts } from "@/lib/db/schema";
import { setUpTestDatabase } from "@/lib/testing/database";

import { runCommandCapturing, runCommandProcess } from "./cli-testing";
import { usersCli } from "./users";

let db: Database;
let tearDown: () => Promise<void>;
beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
});
afterAll(() => tearDown());

/** Runs the CLI in this process, on this file's database: its exit code, standard output and standard error. */
const users = (...args: string[]) => runCommandCapturing(usersCli, args);

it("revoke-sessions, set-role and unlock change the user, end its sessions, and are audited; bad input is refused", async () => {
  const t0 = new Date();
  await createUser({ email: "ada@example.com", name: "Ada", role: "admin", password: "long-enough-password" });
  await db.insert(loginAttempts).values(
    Array.from({ length: 6 }, (_, i) => ({
      email: "ada@example.com",
      ip: `198.51.100.${i % 2}`,
      succeeded: false,
      attemptedAt: t0,
    })),
  );

  expect(await users("revoke-sessions", "--email", "ADA@example.com")).toMatchObject({
    code: 0,
    stdout: "Ended every session of ADA@example.com.\n",
  });
  expect(await users("set-role", "--email", "ada@example.com", "--role", "support")).toMatchObject({
    code: 0,
    stdout: "ada@example.com is now support; their sessions have ended.\n",
  });
  expect(await users("unlock", "--email", "ada@example.com")).toMatchObject({
    code: 0,
    stdout: "Cleared 6 failed sign-in attempts for ada@example.com; it may sign in again from every address.\n",
  });
  // As npm run users runs it, in a process of its own: the usage error is refused before the database is opened.
  const owner = await runCommandProcess("users", ["set-role", "--email", "ada@example.com", "--role", "owner"]);
  expect(owner).toMatchObject({ code: 1, stdout: "" });
  expect(owner.stderr).toMatch(/^--role must be admin or support\.\n\nUsage: npm run users -- <command>\n/);
  expect(await users("revoke-sessions", "--email", "nobody@example.com")).toMatchObject({
    code: 1,
    stderr: expect.stringContaining("No user with the email"),
  });

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
