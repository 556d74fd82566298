import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import type { RunningEmulator } from "@/emulator/server";
import type { Database } from "@/lib/db";
import { connectionSecrets, connections } from "@/lib/db/schema";
import { reloadEnv } from "@/lib/env";
import { encryptSecret, fingerprint } from "@/lib/secrets";
import { setUpTestDatabase } from "@/lib/testing/database";
import { demoTenant, startTestEmulator } from "@/lib/testing/emulator";
import { insertTestConnection } from "@/lib/testing/webhooks";
import { runCommandCapturing } from "./cli-testing";
import { connectionsCli } from "./connections";

let db: Database;
let tearDown: () => Promise<void>;
let emulator: RunningEmulator | undefined;
beforeAll(async () => {
  ({ db, tearDown } = await setUpTestDatabase());
});
afterEach(() => {
  vi.unstubAllEnvs();
  reloadEnv();
});
afterAll(async () => {
  await emulator?.close();
  await tearDown();
});

/** Runs the CLI in this process, on this file's database, with `env` set: its exit code, standard output and standard error. */
function cli(args: string[], env: Record<string, string> = {}) {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  reloadEnv();
  return runCommandCapturing(connectionsCli, args);
}

it("list names a webhook URL that cannot be read in its row and still lists the others", async () => {
  const acme = await insertTestConnection("Acme", ["srv_acme_key_0000000000000001"]);
  const globex = await insertTestConnection("Globex");
  // A key's ciphertext copied into Globex's webhook-token column by someone who can write to the database.
  const [key] = await db.select().from(connectionSecrets).where(eq(connectionSecrets.connectionId, acme.id));
  await db.update(connections).set({ webhookTokenCiphertext: key!.ciphertext }).where(eq(connections.id, globex.id));

  const { stdout } = await cli(["list"]);
  const rows = stdout.trim().split("\n");
  expect(rows).toHaveLength(2);
  expect(rows[0]).toContain(`/api/webhooks/${acme.token}`);
  expect(rows[1]).toMatch(/^Globex\t.*cannot be read/);
  expect(stdout).not.toContain("srv_acme_key");
});

it("add refuses a second connection to the same tenant unless --allow-same-tenant says so, naming the flag", async () => {
  const managementKey = demoTenant("Acme").managementKey;
  const first = await insertTestConnection("Acme US");
  await db.insert(connectionSecrets).values({
    connectionId: first.id,
    kind: "management",
    ciphertext: encryptSecret(managementKey, { connectionId: first.id, kind: "management" }),
    last4: fingerprint(managementKey),
  });
  emulator = await startTestEmulator(); // it sets SERVICE_BASE_URL_*, so the CLI verifies the key against it

  const refused = await cli(["add", "--name", "Acme again", "--region", "us"], { CONSOLE_MANAGEMENT_KEY: managementKey });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("Acme US already connects to this tenant");
  expect(refused.stderr).toContain("Add --allow-same-tenant to add a second connection to it anyway.");

  const second = await cli(["add", "--name", "Acme again", "--region", "us", "--allow-same-tenant"], { CONSOLE_MANAGEMENT_KEY: managementKey });
  expect(second).toMatchObject({ code: 0, stdout: expect.stringContaining("Added Acme again (US, key verified)") });
});
