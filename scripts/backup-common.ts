import { parseArgs } from "node:util";

import { targetFromEnv } from "@/lib/db";
import type { TableCounts } from "@/lib/db/backup";

import { CannotRunError, UsageError } from "./cli";

/** Backup and restore exit 2 for what they cannot start on: bad arguments, and PostgreSQL. */
const CANNOT_START = 2;

/**
 * The options of `npm run backup` / `restore`: `--<file> FILE` (required) and `--force`. A bad one is a
 * usage error with exit code 2.
 */
export function parseFileOptions(argv: string[], file: "out" | "in"): { file: string; force: boolean } {
  let values: { [key: string]: string | boolean | undefined };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { [file]: { type: "string" }, force: { type: "boolean" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message, CANNOT_START);
  }
  const path = values[file];
  if (typeof path !== "string" || !path.trim()) throw new UsageError(`--${file} FILE is required.`, CANNOT_START);
  return { file: path.trim(), force: values.force === true };
}

/** The embedded database's data directory; on PostgreSQL a refusal (exit 2) that prints what to run instead. */
export function embeddedDataDir(instead: string): string {
  const target = targetFromEnv();
  if (target.kind === "pglite") return target.dataDir!;
  throw new CannotRunError(
    `DATABASE_URL is set: the console's database is PostgreSQL, which this command does not handle. Use\n  ${instead}`,
    CANNOT_START,
  );
}

/** "3 tables, 12 rows (connections 1, webhook_events 10, forward_destinations 1)": the tables an operator knows. */
export function describeCounts(counts: TableCounts): string {
  const named = ["connections", "webhook_events", "forward_destinations", "console_users"]
    .filter((table) => table in counts.byTable)
    .map((table) => `${table} ${counts.byTable[table]}`);
  return `${counts.tables} tables, ${counts.rows} rows${named.length ? ` (${named.join(", ")})` : ""}`;
}
