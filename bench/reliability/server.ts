/**
 * Process and database lifecycle for the reliability suite: a fresh database per scenario (a PGlite
 * directory, or a `reliability_<random>` database on the PostgreSQL of DATABASE_URL), the built console
 * started on it with its output captured, stopped gently or with kill -9, and the RSS of its process tree.
 */
import type { ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

import type { QueryResult } from "pg";

import { closeDb, installDatabase, openDatabase, type Database, type DatabaseTarget } from "@/lib/db";
import {
  createPgliteFromTemplate,
  databaseUrl,
  migratedPostgresTemplate,
  withAdminClient,
} from "@/lib/testing/templates";
import { startConsoleServer, stopProcess, waitForUrl } from "@/tooling/processes";

export const distDir = process.env.NEXT_DIST_DIR || ".next";
export let adminUrl = process.env.DATABASE_URL || "";
export let backend = adminUrl ? "PostgreSQL" : "PGlite";

/**
 * Points later scenarios at another PostgreSQL server ("" for PGlite): for a caller that runs on both
 * backends in one process (npm run bench), since DATABASE_URL is read only once, at import.
 */
export function setAdminUrl(url: string): void {
  adminUrl = url;
  backend = url ? "PostgreSQL" : "PGlite";
}

/** Secrets shared by this process (which seeds and verifies) and every console it starts. */
export const secrets = {
  NEXTAUTH_SECRET: crypto.randomBytes(32).toString("base64"),
  CONSOLE_ENCRYPTION_KEY: crypto.randomBytes(32).toString("base64"),
};

/** Sets this process's environment before lib/env reads it (once, on first use). */
export function prepareOwnEnv(): void {
  process.env.NEXTAUTH_SECRET = secrets.NEXTAUTH_SECRET;
  process.env.CONSOLE_ENCRYPTION_KEY = secrets.CONSOLE_ENCRYPTION_KEY;
  process.env.NEXTAUTH_URL ??= "http://127.0.0.1:3000";
  delete process.env.CONSOLE_PREVIOUS_ENCRYPTION_KEYS;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One scenario's own database, a copy of the migrated template (lib/testing/templates.ts), removed by
 * dispose().
 */
export type Scenario = {
  name: string;
  target: DatabaseTarget;
  /** What a console needs in its environment to use this database. */
  env: Record<string, string>;
  /** PostgreSQL only: the database's name (for outages). */
  databaseName?: string;
  dispose: () => Promise<void>;
};

export function adminQuery(text: string, values: unknown[] = []): Promise<QueryResult> {
  return withAdminClient(adminUrl, (c) => c.query(text, values));
}

export async function createScenario(name: string): Promise<Scenario> {
  if (!adminUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `reliability-${name}-`));
    await createPgliteFromTemplate(path.join(dir, "pglite"));
    return {
      name,
      target: { kind: "pglite", dataDir: path.join(dir, "pglite") },
      env: { CONSOLE_DATA_DIR: dir, DATABASE_URL: "" },
      dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const databaseName = `reliability_${crypto.randomBytes(6).toString("hex")}`;
  await adminQuery(`create database ${databaseName} template ${await migratedPostgresTemplate(adminUrl)}`);
  const url = databaseUrl(adminUrl, databaseName);
  return {
    name,
    target: { kind: "postgres", url },
    env: { DATABASE_URL: url },
    databaseName,
    dispose: async () => {
      await adminQuery(`alter database ${databaseName} allow_connections true`).catch(() => {});
      await adminQuery(`drop database if exists ${databaseName} with (force)`);
    },
  };
}

/**
 * Runs `work` with the scenario's database open in this process (and installed as lib/db's database,
 * so lib functions such as createUser write to it). PGlite: only while no console holds it.
 */
export async function withDatabase<T>(scenario: Scenario, work: (db: Database) => Promise<T>): Promise<T> {
  const handle = await openDatabase(scenario.target);
  installDatabase(handle);
  try {
    return await work(handle.db);
  } finally {
    await closeDb();
  }
}

/** Rows of a query on either driver (both answer { rows }). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

export type ConsoleServer = {
  url: string;
  child: ChildProcess;
  startedAt: number;
  /** Everything the server wrote to stdout and stderr so far. */
  output: () => string;
  /** SIGTERM to the process group, then SIGKILL if it has not exited within 10 s. */
  stop: () => Promise<void>;
  /** kill -9 of the whole process group, as a crash or an OOM killer would. */
  kill9: () => Promise<void>;
};

/** Starts server.mjs on the build in `distDir` and the scenario's database; resolves once /api/health is 200. */
export async function startConsole(scenario: Scenario, extraEnv: Record<string, string> = {}): Promise<ConsoleServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...secrets,
    NODE_ENV: "production" as const,
    NEXT_DIST_DIR: distDir,
    NEXTAUTH_URL: url,
    // Load generators connect straight to the console, through no proxy (lib/env.ts asks for the choice).
    CONSOLE_TRUSTED_PROXY_HOPS: "0",
    CONSOLE_PREVIOUS_ENCRYPTION_KEYS: "",
    CONSOLE_BOOTSTRAP_ADMIN_EMAIL: "",
    CONSOLE_BOOTSTRAP_ADMIN_PASSWORD: "",
    ...scenario.env,
    ...extraEnv,
  };
  const child = startConsoleServer(`console ${scenario.name}`, port, env);
  const chunks: string[] = [];
  child.stdout?.on("data", (c: Buffer) => chunks.push(c.toString("utf8")));
  child.stderr?.on("data", (c: Buffer) => chunks.push(c.toString("utf8")));
  const output = () => chunks.join("");
  const server: ConsoleServer = {
    url,
    child,
    startedAt: Date.now(),
    output,
    stop: () => stopProcess(child, { graceMs: 10_000 }),
    kill9: () => stopProcess(child, { graceMs: 0 }),
  };
  try {
    await waitForUrl(`${url}/api/health`, 60_000, child);
  } catch (error) {
    await server.stop();
    throw new Error(`${(error as Error).message}\n--- console output ---\n${output().slice(-3000)}`);
  }
  server.startedAt = Date.now();
  return server;
}

/** Resident memory (bytes) of a process and all its descendants, from /proc. */
export function processTreeRss(rootPid: number): number {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after the command name, which is in parentheses and may hold spaces.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      /* the process ended meanwhile */
    }
  }
  const tree = new Set([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of parents) {
      if (tree.has(ppid) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  let total = 0;
  for (const pid of tree) {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
      if (match) total += Number(match[1]) * 1024;
    } catch {
      /* gone */
    }
  }
  return total;
}

/**
 * Samples processTreeRss every `intervalMs` (a second unless said) until stopped; returns the samples with their times.
 */
export function sampleRss(rootPid: number, intervalMs = 1000): { stop: () => Array<{ at: number; bytes: number }> } {
  const samples: Array<{ at: number; bytes: number }> = [];
  const take = () => samples.push({ at: Date.now(), bytes: processTreeRss(rootPid) });
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}
