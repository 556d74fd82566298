/**
 * The fuzz check: the receiver fuzzed (./fuzz.ts, seed fixed) against a fresh console; no failure, exactly the
 * expected events stored, no secret in the output, and RSS levelling off with the heap capped so that a leak shows
 * (docs/performance.md, "The reliability suite").
 */
import { inArray, sql } from "drizzle-orm";

import { webhookEvents } from "@/lib/db/schema";

import { fuzzReceiver } from "./fuzz";
import { checkResult, type CheckResult } from "./result";
import { seedConnection } from "./seed";
import { createScenario, sampleRss, startConsole, withDatabase, type ConsoleServer } from "./server";

const SEED = 20261123;
const REQUESTS = Number(process.env.RELIABILITY_FUZZ_REQUESTS ?? 10_000);
const MAX_RSS_GROWTH = 64 * 1024 * 1024;
const SERVER_HEAP_MIB = 384;
const MiB = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

export async function fuzzCheck(): Promise<CheckResult> {
  const name = `fuzz (seed ${SEED})`;
  const scenario = await createScenario("fuzz");
  let server: ConsoleServer | undefined;
  try {
    const keys = ["rel_fuzz_server_key_current_00000000001", "rel_fuzz_server_key_previous_0000000002"];
    const { signed, unsigned } = await withDatabase(scenario, async () => ({
      signed: await seedConnection("Fuzz signed", keys),
      unsigned: await seedConnection("Fuzz unsigned"),
    }));
    server = await startConsole(scenario, { NODE_OPTIONS: `--max-old-space-size=${SERVER_HEAP_MIB}` });
    const rss = sampleRss(server.child.pid!);
    const started = performance.now();
    const report = await fuzzReceiver({
      baseUrl: server.url,
      signed: { token: signed.token, keys },
      unsigned: { token: unsigned.token },
      seed: SEED,
      requests: REQUESTS,
    });
    const seconds = (performance.now() - started) / 1000;
    const samples = rss.stop();
    await server.stop();

    // This check's own findings first; the fuzzer's failures (answers against the contract) after them.
    const problems: string[] = [];
    if (report.requests < REQUESTS)
      problems.push(`the fuzzer sent ${report.requests} requests, fewer than ${REQUESTS}`);
    const beforeDatabase = problems.length;

    // The database against expectedStored: same events, same delivery counts, nothing else.
    const connectionOf = new Map([
      [signed.token, signed.id],
      [unsigned.token, unsigned.id],
    ]);
    const rows = await withDatabase(scenario, (db) =>
      db
        .select({
          connectionId: webhookEvents.connectionId,
          eventId: webhookEvents.eventId,
          deliveryCount: webhookEvents.deliveryCount,
        })
        .from(webhookEvents)
        .where(inArray(webhookEvents.connectionId, [signed.id, unsigned.id]))
        .orderBy(sql`1`),
    );
    const stored = new Map(rows.map((r) => [`${r.connectionId}/${r.eventId}`, r.deliveryCount]));
    const expected = new Map(
      report.expectedStored.map((e) => [`${connectionOf.get(e.token)}/${e.eventId}`, e.deliveries]),
    );
    for (const [key, deliveries] of expected) {
      const count = stored.get(key);
      if (count === undefined) problems.push(`expected event ${key} is not stored`);
      else if (count !== deliveries) problems.push(`event ${key}: delivery_count ${count}, expected ${deliveries}`);
    }
    const unexpected = [...stored.keys()].filter((key) => !expected.has(key));
    if (unexpected.length > 0)
      problems.push(`${unexpected.length} events stored but not expected, e.g. ${unexpected.slice(0, 3).join(", ")}`);
    const databaseProblems = problems.length - beforeDatabase;

    const output = server.output();
    const leaked = report.neverInLogs.filter((s) => s && output.includes(s));
    problems.push(...leaked.map((s) => `the server output contains ${JSON.stringify(s.slice(0, 80))}`));

    // RSS: the mean of the third quarter of the samples against the mean of the last quarter.
    const quarter = Math.max(1, Math.floor(samples.length / 4));
    const mean = (xs: typeof samples) => xs.reduce((a, s) => a + s.bytes, 0) / xs.length;
    const third = mean(samples.slice(2 * quarter, 3 * quarter));
    const last = mean(samples.slice(-quarter));
    if (last - third > MAX_RSS_GROWTH)
      problems.push(`RSS grew by ${MiB(last - third)} in the second half (${MiB(third)} -> ${MiB(last)})`);
    problems.push(...report.failures.map((f) => `fuzzer: ${f}`));

    const counts = Object.entries(report.statusCounts)
      .map(([k, v]) => `${k}=${v}`)
      .join(" ");
    const figures =
      `${report.requests} requests in ${seconds.toFixed(1)} s (${counts}); ${report.failures.length} failures; ` +
      `${rows.length} rows stored, ${expected.size} expected, ${databaseProblems} database mismatches; ${report.neverInLogs.length} secrets, ${leaked.length} in output; ` +
      `RSS by quarter ${[0, 1, 2, 3].map((q) => MiB(mean(samples.slice(q * quarter, q === 3 ? undefined : (q + 1) * quarter)))).join("/")} ` +
      `(peak ${MiB(Math.max(...samples.map((s) => s.bytes)))}, ${samples.length} samples)`;
    return checkResult(name, figures, problems);
  } catch (error) {
    return checkResult(name, "did not complete", [String((error as Error).stack ?? error)]);
  } finally {
    await server?.kill9();
    await scenario.dispose();
  }
}
