import fs from "node:fs";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { closeDb, DatabaseBusyError } from "@/lib/db";
import { EnvError } from "@/lib/env";
import { errorMessage } from "@/lib/logger";

/** Reads all of standard input (a piped secret), or undefined when stdin is a terminal. */
export async function readStdin(): Promise<string | undefined> {
  if (process.stdin.isTTY) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8").trim();
  return text || undefined;
}

export class UsageError extends Error {
  override name = "UsageError";
}

/** Who the CLIs' changes are audited as. */
export const cliActor = { id: null, email: "cli" } as const;

/** A string option the command cannot do without, trimmed. */
export function requireOption(flag: string, value: string | undefined): string {
  if (!value?.trim()) throw new UsageError(`--${flag} is required.`);
  return value.trim();
}

export function parseCommand<O extends NonNullable<ParseArgsConfig["options"]>>(argv: string[], options: O) {
  const [command, ...rest] = argv;
  try {
    const { values } = parseArgs({ args: rest, options, strict: true, allowPositionals: false });
    return { command, values };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Runs a CLI's main function: clear one-line errors, exit codes, and the database closed. */
export async function runCli(usage: string, main: () => Promise<void>): Promise<void> {
  let code = 0;
  try {
    await main();
  } catch (error) {
    code = 1;
    if (error instanceof UsageError) console.error(`${error.message}\n\n${usage}`);
    else if (error instanceof DatabaseBusyError || error instanceof EnvError) console.error(error.message);
    else console.error(`Error: ${errorMessage(error)}`);
  } finally {
    await closeDb().catch(() => {});
  }
  process.exit(code);
}

// The secrets `npm run demo` generated, so the CLI talks to the same database the same way.
if (fs.existsSync(".env.local")) process.loadEnvFile(".env.local");
