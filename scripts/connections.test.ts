import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import type { RunningEmulator } from "@/emulator/server";
import { installDatabase } from "@/lib/db";
import { openTestPglite } from "@/lib/testing/database";
import { connectionSecrets, connections } from "@/lib/db/schema";
import { encryptSecret, fingerprint } from "@/lib/secrets";
import { demoTenant, startTestEmulator } from "@/lib/testing/emulator";
import { insertTestConnection } from "@/lib/testing/webhooks";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "connections-cli-"));
let emulator: RunningEmulator | undefined;
afterAll(async () => {
  await emulator?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// Each CLI run starts tsx and opens (the first time, migrates) the database: tens of seconds on a busy 2-core machine.
const CLI_TEST_TIMEOUT_MS = 180_000;

/** Runs the CLI on this file's database; its exit code, standard output and standard error. */
async function cli(args: string[], env: Record<string, string> = {}) {
  return promisify(execFile)("node_modules/.bin/tsx", ["--conditions=react-server", "scripts/connections.ts", ...args], {
    env: { ...process.env, CONSOLE_DATA_DIR: dataDir, DATABASE_URL: "", ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code, stdout: error.stdout ?? "", stderr: error.stderr ?? "" }),
  );
}

it("list names a webhook URL that cannot be read in its row and still lists the others", async () => {
  const handle = await openTestPglite(path.join(dataDir, "pglite"));
  installDatabase(handle);
  const acme = await insertTestConnection("Acme", ["srv_acme_key_0000000000000001"]);
  const globex = await insertTestConnection("Globex");
  // A key's ciphertext copied into Globex's webhook-token column by someone who can write to the database.
  const [key] = await handle.db.select().from(connectionSecrets).where(eq(connectionSecrets.connectionId, acme.id));
  await handle.db.update(connections).set({ webhookTokenCiphertext: key!.ciphertext }).where(eq(connections.id, globex.id));
  await handle.close();

  const { stdout } = await cli(["list"]);
  const rows = stdout.trim().split("\n");
  expect(rows).toHaveLength(2);
  expect(rows[0]).toContain(`/api/webhooks/${acme.token}`);
  expect(rows[1]).toMatch(/^Globex\t.*cannot be read/);
  expect(stdout).not.toContain("srv_acme_key");
}, CLI_TEST_TIMEOUT_MS);

it("add refuses a second connection to the same tenant unless --allow-same-tenant says so, naming the flag", async () => {
  const managementKey = demoTenant("Acme").managementKey;
  const handle = await openTestPglite(path.join(dataDir, "pglite"));
  installDatabase(handle);
  const first = await insertTestConnection("Acme US");
  await handle.db.insert(connectionSecrets).values({
    connectionId: first.id,
    kind: "management",
    ciphertext: encryptSecret(managementKey, { connectionId: first.id, kind: "management" }),
    last4: fingerprint(managementKey),
  });
  await handle.close();
  emulator = await startTestEmulator(); // the CLI inherits SERVICE_BASE_URL_*, so the key is verified against it

  const refused = await cli(["add", "--name", "Acme again", "--region", "us"], { CONSOLE_MANAGEMENT_KEY: managementKey });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("Acme US already connects to this tenant");
  expect(refused.stderr).toContain("Add --allow-same-tenant to add a second connection to it anyway.");

  const second = await cli(["add", "--name", "Acme again", "--region", "us", "--allow-same-tenant"], { CONSOLE_MANAGEMENT_KEY: managementKey });
  expect(second).toMatchObject({ code: 0, stdout: expect.stringContaining("Added Acme again (US, key verified)") });
}, CLI_TEST_TIMEOUT_MS);
