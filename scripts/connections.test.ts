import { and, asc, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import type { RunningEmulator } from "@/emulator/server";
import { readServerKeys } from "@/lib/connections/connections";
import type { Database } from "@/lib/db";
import { auditLog, connections, connectionSecrets } from "@/lib/db/schema";
import { reloadEnv } from "@/lib/env";
import { encryptSecret, fingerprint } from "@/lib/secrets";
import { setUpTestDatabase } from "@/lib/testing/database";
import { demoTenant, startTestEmulator } from "@/lib/testing/emulator";
import { insertTestConnection } from "@/lib/testing/webhooks";

import { runCommand, type CliIo } from "./cli";
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

/**
 * Runs the CLI in this process, on this file's database, with `env` set: its exit code, standard output and standard
 * error.
 */
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

  const refused = await cli(["add", "--name", "Acme again", "--region", "us"], {
    CONSOLE_MANAGEMENT_KEY: managementKey,
  });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("Acme US already connects to this tenant");
  expect(refused.stderr).toContain("Add --allow-same-tenant to add a second connection to it anyway.");

  const second = await cli(["add", "--name", "Acme again", "--region", "us", "--allow-same-tenant"], {
    CONSOLE_MANAGEMENT_KEY: managementKey,
  });
  expect(second).toMatchObject({ code: 0, stdout: expect.stringContaining("Added Acme again (US, key verified)") });
});

describe("set-keys", () => {
  const oldServerKey = "srv_hooli_old_key_0000000001";
  const newServerKey = "srv_hooli_new_key_0000000002";
  /** A connection as `add` leaves it: with a management key (the test fixture has none). */
  async function withManagementKey(connection: { id: string }, key: string) {
    await db.insert(connectionSecrets).values({
      connectionId: connection.id,
      kind: "management",
      ciphertext: encryptSecret(key, { connectionId: connection.id, kind: "management" }),
      last4: fingerprint(key),
    });
    return connection;
  }
  const keyRows = async (connectionId: string) =>
    Object.fromEntries(
      (await db.select().from(connectionSecrets).where(eq(connectionSecrets.connectionId, connectionId))).map((s) => [
        s.kind,
        s.last4,
      ]),
    );
  const replacedAudits = async (name: string) =>
    (
      await db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.connectionName, name), eq(auditLog.action, "connection.key_replaced")))
        .orderBy(asc(auditLog.id))
    ).map((a) => [a.actorEmail, a.target]);

  it("replaces a server key from the environment or standard input, audited, never printed", async () => {
    const hooli = await withManagementKey(
      await insertTestConnection("Hooli", [oldServerKey]),
      "mgmt_hooli_key_000000001",
    );
    const fromEnv = await cli(["set-keys", "--name", "hooli"], { CONSOLE_SERVER_SECRET_KEY: newServerKey });
    expect(fromEnv).toEqual({ code: 0, stdout: "Replaced Hooli's server API secret key.\n", stderr: "" });
    expect(await readServerKeys(hooli.id)).toEqual([newServerKey]);

    // Piped as add takes them (with no key in the environment): an empty first line keeps the management key.
    vi.unstubAllEnvs();
    reloadEnv();
    const piped = "srv_hooli_piped_key_000000003";
    let stdout = "";
    const io: CliIo = {
      print: (line) => void (stdout += `${line}\n`),
      printError: (line) => void (stdout += line),
      readStdin: async () => `\n${piped}\n`,
    };
    expect(await runCommand(connectionsCli, ["set-keys", "--name", "Hooli"], io)).toBe(0);
    expect(stdout).toBe("Replaced Hooli's server API secret key.\n");
    expect(await keyRows(hooli.id)).toEqual({
      management: fingerprint("mgmt_hooli_key_000000001"),
      server: fingerprint(piped),
    });
    expect(await replacedAudits("Hooli")).toEqual([
      ["cli", "server"],
      ["cli", "server"],
    ]);
    expect(JSON.stringify(await db.select().from(auditLog))).not.toContain("srv_hooli");

    expect(await cli(["set-keys", "--name", "Hooli"])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^No key given: set CONSOLE_MANAGEMENT_KEY and\/or CONSOLE_SERVER_SECRET_KEY/),
    });
    expect(await cli(["set-keys", "--name", "Nobody"], { CONSOLE_SERVER_SECRET_KEY: newServerKey })).toMatchObject({
      code: 1,
      stderr: "Error: No connection named Nobody.\n",
    });
  });

  it("checks a new management key against the connection's region, as the connection's page does", async () => {
    emulator ??= await startTestEmulator();
    const oldManagementKey = "mgmt_globex_old_key_00001";
    const globex = await withManagementKey(await insertTestConnection("Globex EU"), oldManagementKey);
    const managementKey = demoTenant("Globex").managementKey; // a key of the EU region
    const onUs = await cli(["set-keys", "--name", "Globex EU"], { CONSOLE_MANAGEMENT_KEY: managementKey });
    expect(onUs).toMatchObject({ code: 1, stdout: "" });
    expect(onUs.stderr).toContain("This key belongs to the EU region, not US.");
    expect(await keyRows(globex.id)).toEqual({ management: fingerprint(oldManagementKey) });

    await db.update(connections).set({ region: "eu" }).where(eq(connections.id, globex.id));
    const onEu = await cli(["set-keys", "--name", "Globex EU"], {
      CONSOLE_MANAGEMENT_KEY: managementKey,
      CONSOLE_SERVER_SECRET_KEY: newServerKey,
    });
    expect(onEu).toEqual({
      code: 0,
      stdout: "Replaced Globex EU's management key (verified) and server API secret key.\n",
      stderr: "",
    });
    expect(await keyRows(globex.id)).toEqual({
      management: fingerprint(managementKey),
      server: fingerprint(newServerKey),
    });
    expect(await replacedAudits("Globex EU")).toEqual([
      ["cli", "management"],
      ["cli", "server"],
    ]);
  });
});
