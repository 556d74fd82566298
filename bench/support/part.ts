/**
 * A part of `npm run bench`, run once per backend by bench/main.ts. The HTTP parts (ingest, query,
 * export, page) measure through recordRun, which stores the figures with the machine's load and prints
 * nothing; bench/main.ts prints each part's table once every backend has run.
 */
import { printPartTable, recordBackend, type BackendKey, type Metric } from "./report";
import { machine } from "./timing";

export type BackendContext = {
  key: BackendKey;
  /** What machine() records as the database, e.g. "PostgreSQL 15.8 (temporary cluster, fsync off)". */
  database: string;
};

export type Part = {
  run: (backend: BackendContext) => Promise<void>;
  /** Prints the part's table from its results file (parts that print their own omit it). */
  print?: () => void;
  /** Records that a backend was not measured, and why. */
  skip?: (backend: BackendKey, reason: string) => void;
};

/** What a part measured on one backend: the table rows and any further figures worth keeping. */
export type Measured = { metrics: Metric[] } & Record<string, unknown>;

/**
 * Runs one part's measurement and stores it under the backend in bench/results/<name>.json. A failure
 * is stored too (so the file never shows an older run's figures as this run's) and then rethrown.
 */
export async function recordRun(
  name: string,
  targets: Record<string, string>,
  backend: BackendContext,
  measure: () => Promise<Measured>,
): Promise<void> {
  const before = machine(backend.database);
  try {
    const measured = await measure();
    // The load average before and after: on a shared machine, other work slows everything measured.
    recordBackend(name, targets, backend.key, {
      at: new Date().toISOString(),
      machine: { ...before, loadAverage1mAfter: machine("").loadAverage1m },
      ...measured,
    });
  } catch (error) {
    recordBackend(name, targets, backend.key, {
      at: new Date().toISOString(),
      skipped: `failed: ${(error as Error).message.split("\n")[0]}`,
    });
    throw error;
  }
}

/** A part that measures over HTTP and keeps its figures in bench/results/<name>.json. */
export function measuredPart(
  name: string,
  title: string,
  targets: Record<string, string>,
  measure: (backend: BackendContext) => Promise<Measured>,
): Part {
  return {
    run: (backend) => recordRun(name, targets, backend, () => measure(backend)),
    print: () => printPartTable(name, title),
    skip: (backend, reason) => recordBackend(name, targets, backend, { at: new Date().toISOString(), skipped: reason }),
  };
}

export const MiB = 1024 * 1024;
export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
export const sum = <T>(items: readonly T[], f: (item: T) => number) =>
  items.reduce((total, item) => total + f(item), 0);
/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
