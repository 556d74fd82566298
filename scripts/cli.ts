import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs, type ParseArgsConfig } from "node:util";

import { closeDb, DatabaseBusyError } from "@/lib/db";
import { EnvError } from "@/lib/env";
import { errorMessage } from "@/lib/error-message";

/** Where a command prints and what it reads from standard input: the process's own, or a test's. */
export type CliIo = {
  print: (line: string) => void;
  printError: (line: string) => void;
  readStdin: () => Promise<string | undefined>;
};

/** A command-line tool: its usage and its main function, given the arguments after the command's name. */
export type Cli = { usage: string; main: (argv: string[], io: CliIo) => Promise<void> };

/** Reads all of standard input (a piped secret), or undefined when stdin is a terminal. */
async function readProcessStdin(): Promise<string | undefined> {
  if (process.stdin.isTTY) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8").trim();
  return text || undefined;
}

/** An error that ends the command with its message and an exit code of its own. */
class CommandExit extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** Bad arguments: the message and the usage; exit 1 unless the command says otherwise (backup and restore: 2). */
export class UsageError extends CommandExit {
  override name = "UsageError";
  constructor(message: string, exitCode = 1) {
    super(message, exitCode);
  }
}

/** A command that cannot run on this set-up at all (backup on PostgreSQL): its message alone, and its exit code. */
export class CannotRunError extends CommandExit {
  override name = "CannotRunError";
  constructor(message: string, exitCode = 2) {
    super(message, exitCode);
  }
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

/**
 * Declares a CLI. When this process was started for `moduleUrl` (`npm run users`), it runs as the
 * process's command; a test imports it instead and runs it in the test's process (runCommandCapturing
 * in scripts/cli-testing.ts), on the test's database.
 */
export function defineCli(moduleUrl: string, usage: string, main: Cli["main"]): Cli {
  const cli = { usage, main };
  const started = process.argv[1];
  // After the module has finished loading: the main function may use what the module defines below it.
  if (started && pathToFileURL(path.resolve(started)).href === moduleUrl) setImmediate(() => void runAsProcess(cli));
  return cli;
}

/** Runs a CLI's main function; a failure is printed as one clear line (a usage error with the usage). Its exit code. */
export async function runCommand(cli: Cli, argv: string[], io: CliIo): Promise<number> {
  try {
    await cli.main(argv, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.printError(`${error.message}\n\n${cli.usage}`);
      return error.exitCode;
    }
    if (error instanceof CannotRunError) {
      io.printError(error.message);
      return error.exitCode;
    }
    if (error instanceof DatabaseBusyError || error instanceof EnvError) io.printError(error.message);
    else io.printError(`Error: ${errorMessage(error)}`);
    return 1;
  }
}

async function runAsProcess(cli: Cli): Promise<void> {
  // The secrets `npm run demo` generated, so the CLI talks to the same database the same way.
  if (fs.existsSync(".env.local")) process.loadEnvFile(".env.local");
  const io: CliIo = {
    print: (line) => console.log(line),
    printError: (line) => console.error(line),
    readStdin: readProcessStdin,
  };
  const code = await runCommand(cli, process.argv.slice(2), io);
  await closeDb().catch(() => {});
  process.exit(code);
}
