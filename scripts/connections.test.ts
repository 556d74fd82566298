import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { installDatabase, openDatabase } from "@/lib/db";
import { connectionSecrets, connections } from "@/lib/db/schema";
import { insertTestConnection } from "@/lib/testing/webhooks";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "connections-cli-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

it("list names a webhook URL that cannot be read in its row and still lists the others", async () => {
  const handle = await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
  installDatabase(handle);
  const acme = await insertTestConnection("Acme", ["srv_acme_key_0000000000000001"]);
  const globex = await insertTestConnection("Globex");
  // A key's ciphertext copied into Globex's webhook-token column by someone who can write to the database.
  const [key] = await handle.db.select().from(connectionSecrets).where(eq(connectionSecrets.connectionId, acme.id));
  await handle.db.update(connections).set({ webhookTokenCiphertext: key!.ciphertext }).where(eq(connections.id, globex.id));
  await handle.close();

  const { stdout } = await promisify(execFile)("node_modules/.bin/tsx", ["--conditions=react-server", "scripts/connections.ts", "list"], {
    env: { ...process.env, CONSOLE_DATA_DIR: dataDir, DATABASE_URL: "" },
  });
  const rows = stdout.trim().split("\n");
  expect(rows).toHaveLength(2);
  expect(rows[0]).toContain(`/api/webhooks/${acme.token}`);
  expect(rows[1]).toMatch(/^Globex\t.*cannot be read/);
  expect(stdout).not.toContain("srv_acme_key");
});
