import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";

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

// Started with the file, as npm run users runs it, in a process of its own: it runs beside the tests below,
// since a usage error is refused before the database is opened.
const ownerRole = runCommandProcess("users", ["set-role", "--email", "ada@example.com", "--role", "owner"]);

/** A new admin with `email` (no password: none of these commands reads it), answering their row. */
async function adminNamed(email: string) {
  return (await db.insert(consoleUsers).values({ email, name: "Ada", role: "admin" }).returning())[0]!;
}
/** The CLI's audit records of `target`, oldest first. */
const auditOf = async (target: string) =>
  (await db.select().from(auditLog).where(eq(auditLog.target, target)).orderBy(asc(auditLog.id))).map((a) => [
    a.action,
    a.actorEmail,
    a.details,
  ]);

it("revoke-sessions ends every session of the user, found by their email in any case, and is audited", async () => {
  const before = await adminNamed("revoked@example.com");
  expect(await users("revoke-sessions", "--email", "REVOKED@example.com")).toMatchObject({
    code: 0,
    stdout: "Ended every session of REVOKED@example.com.\n",
  });
  const [after] = await db.select().from(consoleUsers).where(eq(consoleUsers.id, before.id));
  expect(after).toMatchObject({ role: "admin", disabled: false, sessionVersion: before.sessionVersion + 1 });
  expect(await auditOf("REVOKED@example.com")).toEqual([["user.sessions_revoked", "cli", null]]);
});

it("set-role changes the user's role and ends their sessions, audited", async () => {
  const before = await adminNamed("demoted@example.com");
  expect(await users("set-role", "--email", "demoted@example.com", "--role", "support")).toMatchObject({
    code: 0,
    stdout: "demoted@example.com is now support; their sessions have ended.\n",
  });
  const [after] = await db.select().from(consoleUsers).where(eq(consoleUsers.id, before.id));
  expect(after).toMatchObject({ role: "support", disabled: false, sessionVersion: before.sessionVersion + 1 });
  expect(await auditOf("demoted@example.com")).toEqual([["user.role_changed", "cli", { role: "support" }]]);
});

it("unlock clears the user's failed sign-in attempts from every address, audited", async () => {
  await adminNamed("locked@example.com");
  await db.insert(loginAttempts).values(
    Array.from({ length: 6 }, (_, i) => ({
      email: "locked@example.com",
      ip: `198.51.100.${i % 2}`,
      succeeded: false,
      attemptedAt: new Date(),
    })),
  );
  expect(await users("unlock", "--email", "locked@example.com")).toMatchObject({
    code: 0,
    stdout: "Cleared 6 failed sign-in attempts for locked@example.com; it may sign in again from every address.\n",
  });
  expect(await db.select().from(loginAttempts).where(eq(loginAttempts.email, "locked@example.com"))).toEqual([]);
  expect(await auditOf("locked@example.com")).toEqual([["user.unlocked", "cli", { cleared: 6 }]]);
});

it("refuses a usage error before opening the database, as npm run users runs it", async () => {
  const owner = await ownerRole;
  expect(owner).toMatchObject({ code: 1, stdout: "" });
  expect(owner.stderr).toMatch(/^--role must be admin or support\.\n\nUsage: npm run users -- <command>\n/);
});

it("refuses an email that no user has, and audits nothing", async () => {
  expect(await users("revoke-sessions", "--email", "nobody@example.com")).toMatchObject({
    code: 1,
    stderr: expect.stringContaining("No user with the email"),
  });
  expect(await auditOf("nobody@example.com")).toEqual([]);
});
