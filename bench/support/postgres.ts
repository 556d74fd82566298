/**
 * The PostgreSQL the bench runs against: DATABASE_URL, else a throwaway cluster of the highest installed version on
 * a free 127.0.0.1 port, set up as .ci/run's. fsync is off: the bench measures the console, not a shared machine's
 * disk, and nothing in the cluster outlives the run.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { freePort } from "../reliability/server";
import { onCleanup } from "./cleanup";

export type PostgresServer = { url: string; description: string; stop: () => Promise<void> };

/** The server to use, or why there is none (then the PostgreSQL column is skipped). */
export async function startPostgres(): Promise<PostgresServer | { skipped: string }> {
  const given = process.env.DATABASE_URL;
  if (given) return { url: given, description: "DATABASE_URL", stop: async () => {} };
  const bin = highestPostgresBin();
  if (!bin) return { skipped: "no PostgreSQL binaries (/usr/lib/postgresql/*/bin/initdb) and DATABASE_URL is not set" };

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-postgres-"));
  // initdb refuses to run as root: as root, the cluster belongs to the postgres user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot)
    fs.chownSync(
      dir,
      Number(execFileSync("id", ["-u", "postgres"]).toString().trim()),
      Number(execFileSync("id", ["-g", "postgres"]).toString().trim()),
    );
  const run = (command: string, args: string[]) =>
    execFileSync(asRoot ? "runuser" : command, asRoot ? ["-u", "postgres", "--", command, ...args] : args, {
      stdio: ["ignore", "pipe", "pipe"],
    });
  const data = path.join(dir, "data");
  let started = false;
  const stop = async () => {
    if (started) {
      try {
        run(path.join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "stop"]);
      } catch {
        /* already stopped */
      }
      started = false;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const unregister = onCleanup(stop);
  try {
    run(path.join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres"]);
    const port = await freePort();
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
    run(path.join(bin, "pg_ctl"), ["-D", data, "-w", "-l", path.join(dir, "log"), "-o", options, "start"]);
    started = true;
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      description: "temporary cluster, fsync off",
      stop: async () => {
        unregister();
        await stop();
      },
    };
  } catch (error) {
    unregister();
    await stop();
    throw error;
  }
}

function highestPostgresBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, "bin", "initdb")))
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  const highest = versions.at(-1);
  return highest ? path.join(root, highest, "bin") : undefined;
}
