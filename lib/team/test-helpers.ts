/** Shared fixtures for the team's tests (not a test file itself): a database emptied of users before each test. */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach } from "vitest";

import type { Database } from "@/lib/db";
import { auditLog, consoleUsers, loginAttempts } from "@/lib/db/schema";
import { setUpTestDatabase } from "@/lib/testing/database";

import type { TeamActor } from "./team";

const fixture = {} as { db: Database; url: string | undefined };

/**
 * The test file's database, set up before its tests and torn down after; before each test its users,
 * sign-in attempts and audit records are deleted. The fixture's `db` is there once the file's beforeAll ran.
 */
export function teamFixture(): Readonly<{ db: Database; url: string | undefined }> {
  let tearDown: () => Promise<void>;
  beforeAll(async () => {
    let db: Database;
    let url: string | undefined;
    ({ db, url, tearDown } = await setUpTestDatabase());
    Object.assign(fixture, { db, url });
  });
  afterAll(async () => tearDown());
  beforeEach(async () => {
    await fixture.db.delete(auditLog);
    await fixture.db.delete(loginAttempts);
    await fixture.db.delete(consoleUsers);
  });
  return fixture;
}

type Seed = Partial<typeof consoleUsers.$inferInsert> & { email: string };

/**
 * A console user straight into the table: support, with a placeholder password hash, unless the seed says otherwise.
 */
export async function insertUser(seed: Seed) {
  const [row] = await fixture.db
    .insert(consoleUsers)
    .values({ name: seed.email.split("@")[0]!, role: "support", passwordHash: "$argon2id$placeholder", ...seed })
    .returning();
  return row!;
}

/** An admin to act as. */
export async function actorFor(email: string): Promise<TeamActor> {
  const row = await insertUser({ email, role: "admin" });
  return { id: row.id, email: row.email };
}

/** The user's row as it is now. */
export async function user(id: string) {
  const [row] = await fixture.db.select().from(consoleUsers).where(eq(consoleUsers.id, id));
  return row!;
}

/** The audit records of one action. */
export const audits = (action: string) => fixture.db.select().from(auditLog).where(eq(auditLog.action, action));
/** A set-password link's token (its fragment). */
export const tokenOf = (url: string) => new URL(url).hash.slice(1);
