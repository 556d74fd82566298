import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { runCommandCapturing, runCommandProcess } from "./cli-testing";
import { judge, lintMigrationsCli } from "./lint-migrations";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

/** A temporary migrations folder holding one planted migration, as a new release would add it. */
function plant(name: string, sqlText: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "lint-migrations-"));
  folders.push(folder);
  fs.writeFileSync(path.join(folder, name), sqlText);
  return folder;
}

describe("npm run lint:migrations", () => {
  it("passes on the repository's migrations, with every exception still needed", async () => {
    const outcome = await runCommandCapturing(lintMigrationsCli, []);
    expect(outcome.stderr).toBe("");
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/^\d+ migrations checked by squawk/);
  });

  it("fails a dropped column in its own process, naming the file and the rule", async () => {
    const folder = plant("0015_drop_name.sql", `ALTER TABLE "console_users" DROP COLUMN "name";\n`);
    const outcome = await runCommandProcess("lint-migrations", ["--dir", folder]);
    expect(outcome.code).not.toBe(0);
    expect(outcome.stderr).toContain("0015_drop_name.sql:1:29: ban-drop-column");
  });

  it.each([
    [
      "an index built without CONCURRENTLY",
      `CREATE INDEX "console_users_name_idx" ON "console_users" USING btree ("name");`,
      "require-concurrent-index-creation",
    ],
    [
      "a NOT NULL column added without a default",
      `ALTER TABLE "console_users" ADD COLUMN "tier" text NOT NULL;`,
      "adding-required-field",
    ],
    ["a renamed column", `ALTER TABLE "console_users" RENAME COLUMN "name" TO "full_name";`, "renaming-column"],
    ["a changed type", `ALTER TABLE "console_users" ALTER COLUMN "name" TYPE bytea;`, "changing-column-type"],
  ])("fails %s", async (_what, statement, rule) => {
    const outcome = await runCommandCapturing(lintMigrationsCli, ["--dir", plant("0015_next.sql", statement)]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(`0015_next.sql:1:`);
    expect(outcome.stderr).toContain(`: ${rule}:`);
  });

  it("passes what only expands: a nullable column, a new table and its index", async () => {
    const folder = plant(
      "0015_expand.sql",
      `ALTER TABLE "console_users" ADD COLUMN "nickname" text;
CREATE TABLE "notes" ("id" uuid PRIMARY KEY, "body" text NOT NULL);
CREATE INDEX "notes_body_idx" ON "notes" USING btree ("body");`,
    );
    const outcome = await runCommandCapturing(lintMigrationsCli, ["--dir", folder]);
    expect(outcome.stderr).toBe("");
    expect(outcome.code).toBe(0);
  });

  it("fails what the migrator would skip: a migration its journal lacks, and one dated before the one it follows", async () => {
    const folder = plant("0001_a.sql", `CREATE TABLE "a" ("id" uuid PRIMARY KEY);\n`);
    fs.writeFileSync(path.join(folder, "0002_b.sql"), `CREATE TABLE "b" ("id" uuid PRIMARY KEY);\n`);
    fs.writeFileSync(path.join(folder, "0003_c.sql"), `CREATE TABLE "c" ("id" uuid PRIMARY KEY);\n`);
    fs.mkdirSync(path.join(folder, "meta"));
    // 0002_b was made on a branch before 0001_a was: a database that has 0001_a would never apply it.
    const journal = {
      entries: [
        { when: 2_000, tag: "0001_a" },
        { when: 1_000, tag: "0002_b" },
      ],
    };
    fs.writeFileSync(path.join(folder, "meta/_journal.json"), JSON.stringify(journal));
    const outcome = await runCommandCapturing(lintMigrationsCli, ["--dir", folder]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain("0003_c.sql: not in meta/_journal.json, so it is never applied");
    expect(outcome.stderr).toContain("0002_b.sql: its journal time is not after 0001_a's");
    expect(outcome.stderr).not.toContain("0001_a.sql:");
  });

  it("refuses an inline squawk-ignore, which would skip the reviewed list", async () => {
    const folder = plant(
      "0015_quiet.sql",
      `-- squawk-ignore ban-drop-column\nALTER TABLE "console_users" ADD COLUMN "nickname" text;`,
    );
    const outcome = await runCommandCapturing(lintMigrationsCli, ["--dir", folder]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain("0015_quiet.sql: an inline squawk-ignore");
  });

  it("answers a clear usage error for a folder that does not exist", async () => {
    const outcome = await runCommandCapturing(lintMigrationsCli, ["--dir", "/nonexistent/migrations"]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain("No folder /nonexistent/migrations.");
  });
});

describe("the exceptions", () => {
  const violation = { file: "/x/0001_a.sql", line: 0, column: 0, rule_name: "ban-drop-column", message: "m" };
  const exception = { file: "0001_a.sql", rule: "ban-drop-column", why: "test" };

  it("accept only their own file and rule", () => {
    const other = { ...violation, file: "/x/0002_b.sql" };
    expect(judge([violation, other], ["/x/0001_a.sql", "/x/0002_b.sql"], [exception])).toEqual({
      refused: [other],
      stale: [],
    });
  });

  it("name an exception that accepts nothing any more, for a file being linted", () => {
    expect(judge([], ["/x/0001_a.sql"], [exception]).stale).toEqual([exception]);
    expect(judge([], ["/x/0009_other.sql"], [exception]).stale).toEqual([]);
  });
});
