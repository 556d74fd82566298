/**
 * npm run reliability: the reliability checks against the production build, a fresh database per scenario, one
 * PASS/FAIL/SKIP line per check; exits 1 if one fails (docs/development.md, "Reliability suite"). RELIABILITY_ONLY
 * picks checks by key, RELIABILITY_SKIP leaves some out; RELIABILITY_MAX_PROBLEMS (12) lines per failed check;
 * RELIABILITY_FUZZ_REQUESTS (10000).
 */
import fs from "node:fs";
import path from "node:path";

import { crashCheck } from "./crash";
import { deepNestingCheck } from "./deep";
import { serviceEnv, startEmulator } from "./emulator";
import { faultsCheck } from "./faults";
import { forwardCheck } from "./forward";
import { forwardStopCheck } from "./forward-stop";
import { fuzzCheck } from "./fuzz-check";
import { logsCheck } from "./logs";
import { requestErrorsCheck } from "./request-errors";
import { formatResult, type CheckResult } from "./result";
import { backend, distDir, prepareOwnEnv } from "./server";
import { withServiceConsole } from "./service-console";
import { npmStartStopCheck, stopUnderLoadCheck } from "./stop";
import { twoInstancesCheck } from "./two-instances";

type Check = { key: string; run: (context: { emulatorUrl: string }) => Promise<CheckResult[]> };

const checks: Check[] = [
  { key: "crash", run: async () => [await crashCheck()] },
  { key: "two", run: () => twoInstancesCheck() },
  { key: "logs", run: async () => [...(await logsCheck()), await requestErrorsCheck()] },
  // Checks 4 and 5 share one console pointed at the emulator.
  {
    key: "pages",
    run: ({ emulatorUrl }) =>
      withServiceConsole(async (fixture) => [await faultsCheck(emulatorUrl, fixture), await deepNestingCheck(fixture)]),
  },
  { key: "fuzz", run: async () => [await fuzzCheck()] },
  { key: "forward", run: async () => [await forwardCheck()] },
  { key: "stop", run: async () => [await stopUnderLoadCheck()] },
  { key: "npm-start", run: async () => [await npmStartStopCheck()] },
  { key: "forward-stop", run: async () => [await forwardStopCheck()] },
];

/**
 * Seeding through lib (a connection's key check calls the service) logs info lines here: only warnings and errors are
 * shown.
 */
function quietOwnInfoLogs(): void {
  const write = process.stderr.write.bind(process.stderr) as (
    chunk: string | Uint8Array,
    ...rest: unknown[]
  ) => boolean;
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) =>
    typeof chunk === "string" && chunk.startsWith("{") && chunk.includes('"level":"info"')
      ? true
      : write(chunk, ...rest)) as typeof process.stderr.write;
}

async function main(): Promise<number> {
  if (!fs.existsSync(path.join(distDir, "BUILD_ID"))) {
    console.error(`No production build in ${distDir} (${distDir}/BUILD_ID is missing): run npm run build first.`);
    return 1;
  }
  prepareOwnEnv();
  quietOwnInfoLogs();
  const keys = (name: string) =>
    process.env[name]
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  const only = keys("RELIABILITY_ONLY");
  const skip = keys("RELIABILITY_SKIP") ?? [];
  const unknown = [...(only ?? []), ...skip].filter((key) => !checks.some((c) => c.key === key));
  if (unknown.length > 0) {
    console.error(`No reliability check ${unknown.join(", ")}: the checks are ${checks.map((c) => c.key).join(", ")}.`);
    return 1;
  }
  const started = Date.now();
  console.log(`== reliability on ${backend}, build ${distDir}`);
  // One emulator for the run; every console (and this process's seeding) points the regions at it.
  const emulator = await startEmulator();
  Object.assign(process.env, serviceEnv(emulator.url));
  const results: CheckResult[] = [];
  try {
    for (const check of checks) {
      if ((only && !only.includes(check.key)) || skip.includes(check.key)) continue;
      const checkStarted = Date.now();
      const outcome = await check.run({ emulatorUrl: emulator.url }).catch((error: unknown) => [
        {
          name: check.key,
          status: "FAIL" as const,
          figures: "did not complete",
          problems: [String((error as Error).stack ?? error)],
        },
      ]);
      for (const result of outcome) {
        results.push(result);
        console.log(`${formatResult(result)} [${Math.round((Date.now() - checkStarted) / 1000)} s]`);
      }
    }
  } finally {
    await emulator.stop();
  }
  const count = (status: CheckResult["status"]) => results.filter((r) => r.status === status).length;
  console.log(
    `reliability (${backend}): ${count("PASS")} passed, ${count("FAIL")} failed, ${count("SKIP")} skipped in ${Math.round((Date.now() - started) / 1000)} s`,
  );
  return count("FAIL") > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
