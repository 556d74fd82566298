/**
 * Runs the fuzzer by hand against a server you started; prints the report and the time taken:
 *   FUZZ_TARGET=target.json npx tsx bench/reliability/fuzz-cli.ts [--seed N] [--requests N] [--json]
 * target.json is a FuzzTarget (./fuzz.ts): { baseUrl, signed: { token, keys }, unsigned: { token } }; or FUZZ_BASE_URL.
 */
import fs from "node:fs";

import { fuzzReceiver, type FuzzTarget } from "./fuzz";
import { planFuzzCases } from "./fuzz-cases/plan";

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function main() {
  const file = process.env.FUZZ_TARGET;
  if (!file) throw new Error("set FUZZ_TARGET to a JSON file with baseUrl, signed {token, keys} and unsigned {token}");
  const spec = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<FuzzTarget>;
  const target: FuzzTarget = {
    baseUrl: process.env.FUZZ_BASE_URL ?? spec.baseUrl ?? "http://127.0.0.1:3000",
    signed: spec.signed!,
    unsigned: spec.unsigned!,
    seed: Number(arg("seed") ?? spec.seed ?? 1),
    requests: Number(arg("requests") ?? spec.requests ?? 10_000),
  };
  if (process.argv.includes("--plan")) {
    const counts = new Map<string, number>();
    for (const c of planFuzzCases(target.seed, target.requests).cases)
      counts.set(c.kind, (counts.get(c.kind) ?? 0) + 1);
    for (const [kind, n] of [...counts].sort((a, b) => b[1] - a[1]))
      console.log(`${String(n).padStart(6)}  ${((100 * n) / target.requests).toFixed(1).padStart(5)}%  ${kind}`);
    return;
  }
  const started = performance.now();
  const timings = new Map<string, number[]>();
  const dump = process.argv.includes("--dump")
    ? fs.openSync(process.env.FUZZ_DUMP ?? "fuzz-dump.ndjson", "w")
    : undefined;
  const report = await fuzzReceiver(target, {
    onAnswer: (c, answer, problem) => {
      const list = timings.get(c.kind) ?? [];
      list.push(answer.ms);
      timings.set(c.kind, list);
      if (dump !== undefined && problem) {
        const body = typeof c.body === "function" ? "(lazy)" : (c.body?.toString("utf8").slice(0, 2000) ?? "");
        fs.writeSync(dump, JSON.stringify({ index: c.index, kind: c.kind, path: c.path.label, problem, body }) + "\n");
      }
    },
  });
  const seconds = (performance.now() - started) / 1000;
  if (process.argv.includes("--json")) return void console.log(JSON.stringify({ seconds, ...report }, null, 2));
  console.log(`${report.requests} requests in ${seconds.toFixed(1)} s (seed ${target.seed})`);
  console.log("statuses:", JSON.stringify(report.statusCounts));
  const deliveries = report.expectedStored.reduce((n, e) => n + e.deliveries, 0);
  console.log(
    `expected stored: ${report.expectedStored.length} events, ${deliveries} counted deliveries; neverInLogs: ${report.neverInLogs.length} strings`,
  );
  if (process.argv.includes("--timings")) {
    const rows = [...timings].map(([kind, ms]) => ({
      kind,
      n: ms.length,
      total: ms.reduce((a, b) => a + b, 0),
      max: Math.max(...ms),
    }));
    for (const row of rows.sort((a, b) => b.total - a.total)) {
      console.log(
        `  ${row.kind.padEnd(36)} n=${String(row.n).padStart(5)} mean=${(row.total / row.n).toFixed(1).padStart(7)} ms max=${row.max.toFixed(0).padStart(6)} ms`,
      );
    }
  }
  console.log(`failures (${report.failures.length} lines):`);
  for (const line of report.failures) console.log(`  ${line}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
