import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import type { PGlite } from "@electric-sql/pglite";
import { openDatabase } from "@/lib/db";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite data directory (dumpDataDir), for lib/testing/database.ts. */
    pgliteTemplate: string;
  }
}

const migrationsFolder = path.resolve("lib/db/migrations");

/**
 * Initialising PGlite and applying the migrations takes seconds of CPU; every test file that uses the
 * embedded database would pay it. The run makes one migrated database, dumps it to a file named for the
 * migrations it holds (kept in .data/vitest, so the next run with the same migrations reuses it), and each
 * file starts its own from that dump.
 */
export default async function setup(project: TestProject) {
  const file = path.resolve(".data/vitest", `pglite-template-${migrationsDigest()}.tar`);
  if (!fs.existsSync(file)) {
    const handle = await openDatabase({ kind: "pglite", dataDir: undefined });
    const dump = await (handle.db as unknown as { $client: PGlite }).$client.dumpDataDir("none");
    await handle.close();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, file);
  }
  project.provide("pgliteTemplate", file);
}

function migrationsDigest(): string {
  const hash = crypto.createHash("sha256");
  for (const name of fs.readdirSync(migrationsFolder, { recursive: true, encoding: "utf8" }).sort()) {
    const full = path.join(migrationsFolder, name);
    if (fs.statSync(full).isFile()) hash.update(name).update(fs.readFileSync(full));
  }
  return hash.digest("hex").slice(0, 16);
}
