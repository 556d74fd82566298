// npm run lint:migrations [-- --dir FOLDER]: squawk (the PostgreSQL migration linter, .squawk.toml) over every
// migration, failing on what would lock the database or break the older version still serving during a rolling
// upgrade (docs/operations.md, "Upgrading while serving"), unless scripts/lint-migrations.exceptions.ts accepts it.
// It also fails on what drizzle's migrator would skip without a word (journalProblems).
import { execFile } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { parseArgs, promisify } from "node:util";

import { z } from "zod";

import { defineCli, UsageError } from "./cli";
import { migrationExceptions, type MigrationException } from "./lint-migrations.exceptions";

const usage = `Usage: npm run lint:migrations [-- --dir FOLDER]

Lints every .sql file in FOLDER (default lib/db/migrations) with squawk and .squawk.toml, and checks that
its journal (meta/_journal.json) lists each in order.`;

const root = path.resolve(import.meta.dirname, "..");
const defaultDir = path.join(root, "lib/db/migrations");

/** One finding of squawk's JSON reporter (its lines and columns count from 0). */
const violationSchema = z.object({
  file: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  rule_name: z.string(),
  message: z.string(),
  help: z.string().nullish(),
});
type Violation = z.infer<typeof violationSchema>;

/** An inline `-- squawk-ignore …` would skip the reviewed list: a migration may not carry one. */
const inlineIgnore = /squawk-(ignore|disable)/i;

/** Runs squawk's own binary (the npm package's, for this platform) and reads its findings. */
async function runSquawk(files: string[]): Promise<Violation[]> {
  const bin = path.join(
    path.dirname(createRequire(import.meta.url).resolve("squawk-cli/package.json")),
    "js/bin/squawk",
  );
  const args = [bin, "--config", path.join(root, ".squawk.toml"), "--reporter", "json", ...files];
  // squawk exits 1 when it finds something; its JSON is on stdout either way.
  const { stdout, stderr } = await promisify(execFile)(process.execPath, args, { maxBuffer: 16 << 20 }).catch(
    (error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? "", stderr: error.stderr ?? "" }),
  );
  try {
    return z.array(violationSchema).parse(JSON.parse(stdout));
  } catch {
    throw new Error(`squawk gave no report: ${stderr.trim() || stdout.trim() || "no output"}`);
  }
}

const journalSchema = z.object({
  entries: z.array(z.object({ when: z.number(), tag: z.string() })),
});

/**
 * What drizzle's migrator would skip without a word (when FOLDER has its journal, meta/_journal.json): a .sql file
 * the journal does not list, and an entry not later than the one before it, which a database that has that one
 * never applies (the migrator applies only entries later than the last it recorded). Two branches' migrations merged
 * in the wrong order come to that.
 */
function journalProblems(dir: string, sqlNames: readonly string[]): string[] {
  const file = path.join(dir, "meta/_journal.json");
  if (!fs.existsSync(file)) return [];
  const { entries } = journalSchema.parse(JSON.parse(fs.readFileSync(file, "utf8")));
  const listed = new Set(entries.map((e) => `${e.tag}.sql`));
  const problems = sqlNames
    .filter((name) => !listed.has(name))
    .map((name) => `${name}: not in meta/_journal.json, so it is never applied; npm run db:generate makes migrations`);
  entries.forEach((entry, i) => {
    const before = entries[i - 1];
    if (before && entry.when <= before.when)
      problems.push(
        `${entry.tag}.sql: its journal time is not after ${before.tag}'s, so a database that has ${before.tag} ` +
          `skips it; make it again after the others (npm run db:generate)`,
      );
  });
  return problems;
}

const keyOf = (file: string, rule: string) => `${file}\u0000${rule}`;

/** What squawk found that no exception accepts, and the exceptions of these files that accept nothing. */
export function judge(
  violations: Violation[],
  files: string[],
  exceptions: readonly MigrationException[] = migrationExceptions,
): { refused: Violation[]; stale: MigrationException[] } {
  const accepted = new Set(exceptions.map((e) => keyOf(e.file, e.rule)));
  const used = new Set<string>();
  const refused = violations.filter((v) => {
    const key = keyOf(path.basename(v.file), v.rule_name);
    if (!accepted.has(key)) return true;
    used.add(key);
    return false;
  });
  const names = new Set(files.map((f) => path.basename(f)));
  const stale = exceptions.filter((e) => names.has(e.file) && !used.has(keyOf(e.file, e.rule)));
  return { refused, stale };
}

export const lintMigrationsCli = defineCli(import.meta.url, usage, async (argv, io) => {
  let dir: string;
  try {
    const { values } = parseArgs({ args: argv, options: { dir: { type: "string" } }, strict: true });
    dir = path.resolve(values.dir ?? defaultDir);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`No folder ${dir}.`);
  const files = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".sql"))
    .sort()
    .map((name) => path.join(dir, name));
  if (files.length === 0) throw new UsageError(`No .sql migration in ${dir}.`);

  const problems = journalProblems(
    dir,
    files.map((f) => path.basename(f)),
  );
  for (const file of files) {
    if (inlineIgnore.test(fs.readFileSync(file, "utf8")))
      problems.push(`${path.basename(file)}: an inline squawk-ignore; add an exception to the reviewed list instead`);
  }
  const { refused, stale } = judge(await runSquawk(files), files);
  for (const v of refused)
    problems.push(`${path.basename(v.file)}:${v.line + 1}:${v.column + 1}: ${v.rule_name}: ${v.message}`);
  for (const e of stale) problems.push(`${e.file}: the exception for ${e.rule} accepts nothing any more; remove it`);

  if (problems.length > 0) {
    for (const line of problems) io.printError(line);
    throw new Error(
      `${problems.length} migration problem(s). Expand now, contract in a later release (docs/operations.md, ` +
        `"Upgrading while serving"); a reviewed exception goes in scripts/lint-migrations.exceptions.ts.`,
    );
  }
  io.print(`${files.length} migrations checked by squawk: nothing that locks or breaks a running version.`);
});
