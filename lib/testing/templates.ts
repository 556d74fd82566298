import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { openDatabase } from "@/lib/db";

const migrationsFolder = path.resolve("lib/db/migrations");
const templatesFolder = path.resolve(".data/templates");

/**
 * Initialising PGlite and applying the migrations takes seconds of CPU (5 s for the e2e stack's seed on
 * two cores), which every test file, e2e stack and reliability scenario on the embedded database would
 * pay. The first caller makes one migrated database and dumps it (dumpDataDir) to a file named for the
 * migrations it holds, kept in .data/templates, and every later one (in this run or the next, in any
 * process) starts its database as a copy of that file. Returns the file.
 */
export async function migratedPgliteTemplate(): Promise<string> {
  const file = path.join(templatesFolder, `pglite-${migrationsDigest()}.tar`);
  if (!fs.existsSync(file)) {
    const handle = await openDatabase({ kind: "pglite", dataDir: undefined });
    const dump = await (handle.db as unknown as { $client: PGlite }).$client.dumpDataDir("none");
    await handle.close();
    fs.mkdirSync(templatesFolder, { recursive: true });
    // Written aside and renamed: processes that make it at the same time each put a whole file in place.
    const partial = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, file);
  }
  return file;
}

/**
 * Creates the embedded database in `dataDir` as a copy of the migrated template, for a process that
 * opens it afterwards (a console, a seed); a `dataDir` that already holds a database is left as it is.
 */
export async function createPgliteFromTemplate(dataDir: string): Promise<void> {
  if (fs.existsSync(path.join(dataDir, "PG_VERSION"))) return;
  const template = new Blob([fs.readFileSync(await migratedPgliteTemplate())]);
  const handle = await openDatabase({ kind: "pglite", dataDir, template });
  await handle.close();
}

function migrationsDigest(): string {
  const hash = crypto.createHash("sha256");
  for (const name of fs.readdirSync(migrationsFolder, { recursive: true, encoding: "utf8" }).sort()) {
    const full = path.join(migrationsFolder, name);
    if (fs.statSync(full).isFile()) hash.update(name).update(fs.readFileSync(full));
  }
  return hash.digest("hex").slice(0, 16);
}
