import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";

import type { Database } from "@/lib/db";
import { auditLog, webhookEvents } from "@/lib/db/schema";
import { post } from "@/lib/erasure/test-helpers";
import { hashUserId, userPseudonym } from "@/lib/erasure/user-hash";
import { setUpTestDatabase } from "@/lib/testing/database";
import { expiredEvent, insertTestConnection } from "@/lib/testing/webhooks";
import { KEY1 } from "@/lib/webhooks/test-helpers";

import { runCommandCapturing, runCommandProcess } from "./cli-testing";
import { eraseCli } from "./erase";

let db: Database;
let tearDown: () => Promise<void>;
beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
});
afterAll(() => tearDown());

/** Runs the CLI in this process, on this file's database: its exit code, standard output and standard error. */
const erase = (...args: string[]) => runCommandCapturing(eraseCli, args);

it("counts with --dry-run, erases in one connection (by name) or in all, and audits it as cli without the id", async () => {
  const acme = await insertTestConnection("Acme", [KEY1]);
  const globex = await insertTestConnection("Globex", [KEY1]);
  for (const connection of [acme, acme, globex])
    expect(await post(connection.token, expiredEvent({ data: { userId: "usr_cli", email: "cli@example.com" } }))).toBe(
      200,
    );

  expect(await erase("--user-id", "usr_cli", "--dry-run")).toEqual({
    code: 0,
    stdout: "Acme\t2 events\nGlobex\t1 event\nWould erase 3 events in every connection; nothing was erased.\n",
    stderr: "",
  });
  const pseudonym = userPseudonym(hashUserId("usr_cli").hash);
  const inGlobex = await erase("--user-id", "usr_cli", "--connection", "GLOBEX");
  expect(inGlobex).toMatchObject({ code: 0, stderr: "" });
  expect(inGlobex.stdout).toBe(
    `Erased 1 event. The audit log names the user ${pseudonym}.\nForwards already delivered cannot be recalled: each destination keeps what it received, so ask its owner to erase it there.\n`,
  );
  expect(await db.select({ connectionId: webhookEvents.connectionId }).from(webhookEvents)).toEqual([
    { connectionId: acme.id },
    { connectionId: acme.id },
  ]);
  expect(await erase("--user-id", "usr_cli", "--connection", acme.id)).toMatchObject({
    code: 0,
    stdout: expect.stringMatching(/^Erased 2 events\. /),
  });
  expect(await erase("--user-id", "usr_cli", "--dry-run")).toMatchObject({
    code: 0,
    stdout: expect.stringContaining("Would erase nothing in every connection"),
  });

  const records = await db.select().from(auditLog).where(eq(auditLog.action, "end_user.erased")).orderBy(auditLog.id);
  expect(records.map((r) => [r.actorEmail, r.connectionName, r.target])).toEqual([
    ["cli", "Globex", pseudonym],
    ["cli", "Acme", pseudonym],
  ]);
  expect(JSON.stringify(records)).not.toMatch(/usr_cli|cli@example\.com/);
});

it("refuses an unknown connection, and (as its own process) a missing user id with the usage", async () => {
  expect(await erase("--user-id", "usr_cli", "--connection", "Initech")).toEqual({
    code: 1,
    stdout: "",
    stderr: "Error: No connection named Initech.\n",
  });
  const missing = await runCommandProcess("erase", ["--connection", "Acme"]);
  expect(missing).toMatchObject({ code: 1, stdout: "" });
  expect(missing.stderr).toMatch(/^--user-id is required\.\n\nUsage: npm run erase -- --user-id U/);
});
