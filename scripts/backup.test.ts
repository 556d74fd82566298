import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";

import { asc } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { readConnectionSecret, readServerKeys } from "@/lib/connections/keys";
import { sealKey } from "@/lib/connections/repository";
import type { Database } from "@/lib/db";
import { forwardDestinations } from "@/lib/db/forwarding-schema";
import { connectionSecrets, webhookEvents } from "@/lib/db/schema";
import { receiveEvent } from "@/lib/destinations/test-helpers";
import { reloadEnv } from "@/lib/env";
import { withTestPglite } from "@/lib/testing/database";
import { scaled } from "@/lib/testing/timeouts";
import { insertTestConnection } from "@/lib/testing/webhooks";
import { KEY1 } from "@/lib/webhooks/test-helpers";

import { backupCli } from "./backup";
import { runCommandCapturing, runCommandProcess } from "./cli-testing";
import { destinationsCli } from "./destinations";
import { restoreCli } from "./restore";

// Embedded databases in folders of their own, whatever the suite runs on: backup and restore are PGlite's.
const root = fs.mkdtempSync(path.join(os.tmpdir(), "backup-"));
const original = path.join(root, "original");
const restored = path.join(root, "restored");
const backupFile = path.join(root, "console.backup.tgz");
const MANAGEMENT_KEY = "mgmt_backup_test_key_0000000001";

/** Runs `cli` in this process with CONSOLE_DATA_DIR=`dataDir` (on PGlite): its exit code and output. */
function run(cli: typeof backupCli, dataDir: string, args: string[]) {
  vi.stubEnv("CONSOLE_DATA_DIR", dataDir);
  vi.stubEnv("DATABASE_URL", undefined);
  reloadEnv();
  return runCommandCapturing(cli, args);
}

/** What a console serves from a database: its log, its connections' keys in clear, its destinations. */
async function servedState(db: Database, connectionId: string) {
  return {
    log: await db.select().from(webhookEvents).orderBy(asc(webhookEvents.eventId)),
    management: await readConnectionSecret(connectionId, "management"),
    serverKeys: await readServerKeys(connectionId),
    destinations: await db.select().from(forwardDestinations).orderBy(asc(forwardDestinations.name)),
  };
}

let connectionId: string;
let before: Awaited<ReturnType<typeof servedState>>;

beforeAll(async () => {
  vi.stubEnv("CONSOLE_FORWARD_ALLOWED_HOSTS", "127.0.0.1");
  reloadEnv();
  before = await withTestPglite(path.join(original, "pglite"), async (db) => {
    const connection = await insertTestConnection("Acme", [KEY1]);
    connectionId = connection.id;
    await db.insert(connectionSecrets).values(sealKey(connection.id, "management", MANAGEMENT_KEY, null));
    for (let i = 0; i < 3; i++) await receiveEvent(connection.token, [KEY1]);
    for (const name of ["Orders", "Audit"]) {
      const added = await runCommandCapturing(destinationsCli, [
        ...["add", "--connection", "Acme", "--name", name, "--url", `http://127.0.0.1:9/${name}`],
        ...["--signing", "standard-webhooks"],
      ]);
      expect(added.code).toBe(0);
    }
    return servedState(db, connection.id);
  });
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.stubEnv("CONSOLE_FORWARD_ALLOWED_HOSTS", "127.0.0.1");
  reloadEnv();
});
afterAll(() => {
  vi.unstubAllEnvs();
  reloadEnv();
  fs.rmSync(root, { recursive: true, force: true });
});

// The longer limits: each test opens embedded databases from their files several times, seconds each on a loaded machine.
describe("on the embedded database", () => {
  it(
    "a restored console serves the same log, keys (with the same encryption key) and destinations",
    async () => {
      expect(before.log).toHaveLength(3);
      expect(before.management).toBe(MANAGEMENT_KEY);
      expect(before.destinations.map((d) => d.name)).toEqual(["Audit", "Orders"]);

      const backup = await run(backupCli, original, ["--out", backupFile]);
      expect(backup).toMatchObject({ code: 0, stderr: "" });
      expect(backup.stdout).toMatch(
        /^Wrote .*console\.backup\.tgz \([\d.]+ [KM]iB\) from .*original\/pglite: \d+ tables/,
      );
      expect(backup.stdout).toContain("connections 1, webhook_events 3, forward_destinations 2");
      expect(backup.stdout).not.toContain(MANAGEMENT_KEY);
      expect(fs.existsSync(`${backupFile}.tmp`)).toBe(false);
      // A second backup to the same file is refused, unless --force.
      expect(await run(backupCli, original, ["--out", backupFile])).toMatchObject({
        code: 1,
        stderr: expect.stringContaining("already exists: give another --out, or add --force"),
      });
      expect((await run(backupCli, original, ["--out", backupFile, "--force"])).code).toBe(0);

      const restore = await run(restoreCli, restored, ["--in", backupFile]);
      expect(restore).toMatchObject({ code: 0, stderr: "" });
      expect(restore.stdout).toContain("and migrated it:");
      expect(restore.stdout).toContain("connections 1, webhook_events 3, forward_destinations 2");

      const after = await withTestPglite(path.join(restored, "pglite"), (db) => servedState(db, connectionId));
      expect(after).toEqual(before);
    },
    scaled(90_000),
  );

  it(
    "restore refuses a folder that holds a database without --force; with it, moves that one aside",
    async () => {
      const dataDir = path.join(root, "occupied");
      await withTestPglite(path.join(dataDir, "pglite"), async () => {});
      const refused = await run(restoreCli, dataDir, ["--in", backupFile]);
      expect(refused).toMatchObject({ code: 1, stdout: "" });
      expect(refused.stderr).toContain("already holds a database, which a restore would replace");
      expect(fs.readdirSync(dataDir).sort()).toEqual(["pglite"]);

      const forced = await run(restoreCli, dataDir, ["--in", backupFile, "--force"]);
      expect(forced.code).toBe(0);
      const aside = fs.readdirSync(dataDir).find((name) => name.startsWith("pglite.before-restore-"));
      expect(forced.stdout).toContain(`aside, to ${path.join(dataDir, aside!)}.`);
      expect(fs.existsSync(path.join(dataDir, aside!, "PG_VERSION"))).toBe(true);
      const log = await withTestPglite(path.join(dataDir, "pglite"), (db) => db.select().from(webhookEvents));
      expect(log).toHaveLength(3);
    },
    scaled(90_000),
  );

  it("restore refuses a file that is not a backup, and leaves the database it would replace as it was", async () => {
    const notGzip = path.join(root, "notes.txt");
    fs.writeFileSync(notGzip, "not a backup");
    const gzipNotTar = path.join(root, "notes.txt.gz");
    fs.writeFileSync(gzipNotTar, zlib.gzipSync("not a backup either"));
    const files = () => fs.readdirSync(path.join(restored, "pglite")).sort();
    const listed = files();

    for (const file of [notGzip, gzipNotTar]) {
      const refused = await run(restoreCli, restored, ["--in", file, "--force"]);
      expect(refused).toMatchObject({ code: 1, stdout: "" });
      expect(refused.stderr).toContain(`${file} is not a backup of the embedded database`);
    }
    const missing = await run(restoreCli, restored, ["--in", path.join(root, "missing.tgz"), "--force"]);
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringContaining("Cannot read ") });
    expect(fs.readdirSync(restored).sort()).toEqual(["pglite"]);
    expect(files()).toEqual(listed);
    const after = await withTestPglite(path.join(restored, "pglite"), (db) => servedState(db, connectionId));
    expect(after).toEqual(before);
  });

  it("backup and restore refuse while a console holds the folder, saying what to do", async () => {
    // The Vitest process that started this thread: alive, and not this one (as lib/db/data-dir-lock.test.ts).
    fs.writeFileSync(path.join(original, "pglite.pid"), String(process.ppid));
    try {
      const out = path.join(root, "while-held.tgz");
      for (const [cli, args] of [
        [backupCli, ["--out", out]],
        [restoreCli, ["--in", backupFile, "--force"]],
      ] as const) {
        const refused = await run(cli, original, [...args]);
        expect(refused).toMatchObject({ code: 1, stdout: "" });
        expect(refused.stderr).toContain(`in use by another process (pid ${process.ppid})`);
        expect(refused.stderr).toContain("Stop it first");
      }
      expect(fs.existsSync(out)).toBe(false);
      expect(fs.readdirSync(original).sort()).toEqual(["pglite", "pglite.pid"]);
    } finally {
      fs.rmSync(path.join(original, "pglite.pid"));
    }
  });
});

it("on PostgreSQL both exit 2 and print the pg_dump / pg_restore command to use", async () => {
  vi.stubEnv("DATABASE_URL", "postgres://console@127.0.0.1:9/console");
  reloadEnv();
  expect(await runCommandCapturing(backupCli, ["--out", backupFile])).toMatchObject({
    code: 2,
    stdout: "",
    stderr: expect.stringContaining('pg_dump -Fc "$DATABASE_URL" -f console.dump'),
  });
  expect(await runCommandCapturing(restoreCli, ["--in", backupFile])).toMatchObject({
    code: 2,
    stdout: "",
    stderr: expect.stringContaining('pg_restore --clean --if-exists -d "$DATABASE_URL" console.dump'),
  });
});

it("bad arguments print the usage and exit 2, from the command itself", async () => {
  const missing = await runCommandProcess("restore", [], { CONSOLE_DATA_DIR: path.join(root, "unused") });
  expect(missing).toMatchObject({ code: 2, stdout: "" });
  expect(missing.stderr).toContain("--in FILE is required.\n\nUsage: npm run restore -- --in FILE [--force]");
  expect(await runCommandCapturing(backupCli, ["--out", backupFile, "--yes"])).toMatchObject({
    code: 2,
    stderr: expect.stringContaining("Usage: npm run backup -- --out FILE [--force]"),
  });
  expect(fs.existsSync(path.join(root, "unused"))).toBe(false);
});
