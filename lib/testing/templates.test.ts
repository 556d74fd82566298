import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { openDatabase } from "@/lib/db";
import { consoleUsers } from "@/lib/db/schema";
import { createPgliteFromTemplate } from "./pglite-template";

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "pglite-template-test-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

it("creates a database with every migration applied, and leaves one that exists as it is", async () => {
  const dataDir = path.join(folder, "pglite");
  await createPgliteFromTemplate(dataDir);

  const migrations = fs.readdirSync(path.resolve("lib/db/migrations")).filter((name) => name.endsWith(".sql")).length;
  const handle = await openDatabase({ kind: "pglite", dataDir });
  const applied = (await handle.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)) as unknown as { rows: { n: number }[] };
  expect(applied.rows[0]!.n).toBe(migrations);
  await handle.db.insert(consoleUsers).values({ email: "kept@example.test", name: "Kept", role: "support" });
  await handle.close();

  await createPgliteFromTemplate(dataDir);
  const again = await openDatabase({ kind: "pglite", dataDir });
  expect(await again.db.select({ email: consoleUsers.email }).from(consoleUsers)).toEqual([{ email: "kept@example.test" }]);
  await again.close();
});
