/**
 * How the HTTP parts record what they measured: bench/results/<part>.json keeps each backend's latest figures (a run
 * on one keeps the other's), printed as metric | PGlite | PostgreSQL | target | met?. A miss says by how much;
 * nothing here adjusts a figure.
 */
import { machine, readResult, writeResult } from "./timing";

export type BackendKey = "pglite" | "postgres";
export const BACKEND_LABEL: Record<BackendKey, string> = { pglite: "PGlite", postgres: "PostgreSQL" };

/** A bound a metric must stay within; `pglite`/`postgres` when the bound differs per backend. */
export type Target = { op: "<=" | ">="; value?: number; pglite?: number; postgres?: number };

/** One row of a part's table, for one backend. `display` replaces the plain number (e.g. "7.9 (p50 3.1)"). */
export type Metric = { metric: string; value: number | null; unit: string; display?: string; target?: Target };

/** What a backend's run stored: its own time, machine and table rows, plus whatever figures the part keeps. */
export type Machine = ReturnType<typeof machine> & { loadAverage1mAfter?: number };
export type BackendResult = { at: string; machine: Machine; metrics: Metric[]; [figures: string]: unknown };
export type SkippedBackend = { at: string; skipped: string };

type PartResult = { at: string; machine: Machine; targets: Record<string, string> } & Partial<
  Record<BackendKey, BackendResult | SkippedBackend>
>;

/** Stores one backend's figures in bench/results/<part>.json, keeping the other backend's last ones. */
export function recordBackend(
  part: string,
  targets: Record<string, string>,
  backend: BackendKey,
  figures: BackendResult | SkippedBackend,
): void {
  const previous = readResult(part) as Partial<PartResult>;
  const latestMachine = "machine" in figures ? figures.machine : (previous.machine ?? machine(""));
  writeResult(part, { ...previous, at: figures.at, machine: latestMachine, targets, [backend]: figures });
}

export function targetText(target: Target, unit: string): string {
  const sign = target.op === "<=" ? "≤" : "≥";
  const bound = (n: number | undefined) =>
    n === undefined ? "—" : `${sign} ${formatNumber(n)}${unit ? ` ${unit}` : ""}`;
  if (target.value !== undefined) return bound(target.value);
  return target.pglite === target.postgres
    ? bound(target.pglite)
    : `${bound(target.pglite)} PGlite, ${bound(target.postgres)} PG`;
}

/** "yes", or "NO (by X unit)"; null when the metric has no target on this backend. */
export function verdict(metric: Metric, backend: BackendKey): string | null {
  const bound = metric.target?.value ?? metric.target?.[backend];
  if (!metric.target || bound === undefined || metric.value === null) return null;
  const miss = metric.target.op === "<=" ? metric.value - bound : bound - metric.value;
  return miss <= 0 ? "yes" : `NO (by ${formatNumber(miss)}${metric.unit ? ` ${metric.unit}` : ""})`;
}

export function formatNumber(n: number): string {
  const abs = Math.abs(n);
  if (Number.isInteger(n) || abs >= 1000) return Math.round(n).toLocaleString("en");
  if (abs >= 100) return n.toFixed(0);
  if (abs >= 10) return n.toFixed(1);
  return n.toFixed(2);
}

/** Prints the part's table from bench/results/<part>.json: both backends' latest figures. */
export function printPartTable(part: string, title: string): void {
  const result = readResult(part) as Partial<PartResult>;
  const backends: BackendKey[] = ["pglite", "postgres"];
  const names: string[] = [];
  const byBackend = new Map<BackendKey, Map<string, Metric>>();
  for (const backend of backends) {
    const figures = result[backend];
    const metrics = new Map<string, Metric>();
    if (figures && "metrics" in figures) for (const m of figures.metrics) metrics.set(m.metric, m);
    byBackend.set(backend, metrics);
    for (const name of metrics.keys()) if (!names.includes(name)) names.push(name);
  }
  const cell = (backend: BackendKey, name: string) => {
    const figures = result[backend];
    if (!figures) return "not run";
    if ("skipped" in figures) return "skipped";
    const m = byBackend.get(backend)!.get(name);
    if (!m || m.value === null) return m?.display ?? "—";
    return m.display ?? `${formatNumber(m.value)}${m.unit ? ` ${m.unit}` : ""}`;
  };
  const rows = names.map((name) => {
    const m = backends.map((b) => byBackend.get(b)!.get(name)).find(Boolean)!;
    const verdicts = backends.map((b) => {
      const metric = byBackend.get(b)!.get(name);
      return metric ? verdict(metric, b) : null;
    });
    const met = verdicts.every((v) => v === null) ? "—" : verdicts.map((v) => v ?? "—").join(" / ");
    return [name, cell("pglite", name), cell("postgres", name), m.target ? targetText(m.target, m.unit) : "—", met];
  });
  const header = ["metric", "PGlite", "PostgreSQL", "target", "met? (PGlite / PG)"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ");
  console.log(`\n${title}`);
  for (const backend of backends) {
    const figures = result[backend];
    if (figures)
      console.log(
        `  ${BACKEND_LABEL[backend]}: ${"skipped" in figures ? `skipped (${figures.skipped})` : `${figures.machine.database}, ${figures.at}, load average ${figures.machine.loadAverage1m} on ${figures.machine.cpus} CPUs`}`,
      );
  }
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("-|-"));
  for (const row of rows) console.log(line(row));
}
