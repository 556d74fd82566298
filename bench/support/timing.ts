/** What every bench part shares: throwaway secrets, the timing of repeated runs, and where results go. */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** The bench needs no real secrets; set throwaway ones before anything reads the environment. */
export function setThrowawaySecrets(): void {
  process.env.NEXTAUTH_SECRET ??= crypto.randomBytes(32).toString("base64");
  process.env.NEXTAUTH_URL ??= "http://127.0.0.1:3000";
  process.env.CONSOLE_ENCRYPTION_KEY ??= crypto.randomBytes(32).toString("base64");
}

export type Timing = { runs: number; p50Ms: number; p95Ms: number; maxMs: number };

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** `runs` timed calls of `fn` after one untimed warm-up. */
export async function timeRuns(runs: number, fn: () => Promise<unknown>): Promise<Timing> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    runs,
    p50Ms: round(percentile(times, 50)),
    p95Ms: round(percentile(times, 95)),
    maxMs: round(times.at(-1)!),
  };
}

/** What ran the bench; the load average says how much else the machine was doing meanwhile. */
export function machine(database: string) {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    node: process.version,
    database,
    loadAverage1m: Math.round(os.loadavg()[0]! * 100) / 100,
  };
}

/** Writes bench/results/<name>.json and returns the JSON. */
export function writeResult(name: string, result: unknown): string {
  const dir = path.resolve("bench/results");
  fs.mkdirSync(dir, { recursive: true });
  const json = JSON.stringify(result, null, 2);
  fs.writeFileSync(path.join(dir, `${name}.json`), json);
  return json;
}

/** The last bench/results/<name>.json as an object (empty when there is none). */
export function readResult(name: string): Record<string, unknown> {
  try {
    return JSON.parse(fs.readFileSync(path.resolve("bench/results", `${name}.json`), "utf8")) as Record<
      string,
      unknown
    >;
  } catch {
    return {};
  }
}
