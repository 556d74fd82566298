import { execFile } from "node:child_process";
import { promisify } from "node:util";

import { runCommand, type Cli, type CliIo } from "./cli";

/** What a command did: its exit code and what it printed on each stream. */
export type CommandOutcome = { code: number; stdout: string; stderr: string };

/**
 * Runs `cli` in this process (a test's), on the database installed in it, as `npm run` would with
 * `argv` and nothing on standard input.
 */
export async function runCommandCapturing(cli: Cli, argv: string[]): Promise<CommandOutcome> {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    print: (line) => void (stdout += `${line}\n`),
    printError: (line) => void (stderr += `${line}\n`),
    readStdin: async () => undefined,
  };
  const code = await runCommand(cli, argv, io);
  return { code, stdout, stderr };
}

/**
 * Runs `scripts/<name>.ts` as `npm run` does, in a process of its own (its exit code, its streams), in this
 * process's environment with `env` over it. It costs seconds per run, so tests keep it for the entry point itself
 * and run the rest in their own process (runCommandCapturing).
 */
export async function runCommandProcess(
  name: string,
  argv: string[],
  env: Record<string, string | undefined> = {},
): Promise<CommandOutcome> {
  const options = { env: { ...process.env, ...env } };
  return promisify(execFile)(
    "node_modules/.bin/tsx",
    ["--conditions=react-server", `scripts/${name}.ts`, ...argv],
    options,
  ).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? 1,
      stdout: error.stdout ?? "",
      stderr: error.stderr ?? "",
    }),
  );
}
