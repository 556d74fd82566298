import type { PGlite } from "@electric-sql/pglite";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";

import { recordAudit } from "@/lib/audit/audit";
import { closeDb, getDb, installDatabase, openDatabase, type DatabaseHandle } from "@/lib/db";
import { endUserErasures } from "@/lib/db/erasure-schema";
import { auditLog, webhookEvents } from "@/lib/db/schema";
import { setUpTestDatabase } from "@/lib/testing/database";
import { expiredEvent, insertTestConnection } from "@/lib/testing/webhooks";
import { KEY1 } from "@/lib/webhooks/test-helpers";

import { eraseStep, resumeErasures, startErasure } from "./job";
import { admin, post } from "./test-helpers";

// An erasure a restart interrupts finishes: its row and progress are in the database, and the start
// (lib/startup.ts, through startErasureResumption) takes it up again on a database opened afresh.

let handle: DatabaseHandle;
let url: string | undefined;
let tearDown: () => Promise<void>;
beforeAll(async () => {
  ({ handle, url, tearDown } = await setUpTestDatabase());
});
afterAll(() => tearDown());

/**
 * Stops the database and opens it again from what it holds, as a restarted console does: PostgreSQL's
 * database itself; PGlite's files as they are now (its dump), in a fresh instance.
 */
async function restart(): Promise<void> {
  const files = url ? undefined : await (handle.db as unknown as { $client: PGlite }).$client.dumpDataDir("none");
  await closeDb();
  handle = await openDatabase(
    url ? { kind: "postgres", url } : { kind: "pglite", dataDir: undefined, template: files },
  );
  installDatabase(handle);
}

it("an erasure interrupted by a restart finishes after it, with one audit record of everything it erased", async () => {
  const acme = await insertTestConnection("Acme", [KEY1]);
  for (const method of ["SMS", "PUSH", "EMAIL_OTP"])
    expect(await post(acme.token, expiredEvent({ data: { userId: "usr_r", verificationMethod: method } }))).toBe(200);
  expect(await post(acme.token, expiredEvent({ data: { userId: "usr_kept" } }))).toBe(200);
  await recordAudit({
    actor: admin,
    action: "user_authenticators.viewed",
    outcome: "success",
    connection: { id: acme.id, name: "Acme" },
    target: "usr_r",
  });

  const id = await startErasure(admin, "usr_r", null);
  // What the runner had done when the console stopped: the audit record's mention, and one event of three.
  expect(await eraseStep(id, 1)).toEqual({ kind: "more" });
  expect(await eraseStep(id, 1)).toEqual({ kind: "more" });
  // Asked again meanwhile: the same erasure, not a second one.
  expect(await startErasure(admin, "usr_r", null)).toBe(id);

  await restart();
  const db = await getDb();
  expect(await db.select({ userId: webhookEvents.userId }).from(webhookEvents).orderBy(webhookEvents.userId)).toEqual([
    { userId: "usr_kept" },
    { userId: "usr_r" },
    { userId: "usr_r" },
  ]);

  expect(await resumeErasures()).toBe(1);
  expect(await db.select({ userId: webhookEvents.userId }).from(webhookEvents)).toEqual([{ userId: "usr_kept" }]);
  expect(await db.select().from(endUserErasures)).toEqual([]);
  const records = await db.select().from(auditLog).where(eq(auditLog.action, "end_user.erased"));
  expect(records).toHaveLength(1);
  expect(records[0]!.details).toMatchObject({ erasureId: id, erased: { events: 3, auditRecords: 1 } });
  expect(JSON.stringify(records)).not.toContain("usr_r");
  expect(await resumeErasures()).toBe(0);
});
