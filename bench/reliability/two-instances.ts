/**
 * The two-instances check (PostgreSQL only): two consoles on one database receive the same events concurrently, one
 * row each with exact delivery counts; the retention purge, the servers' own and two concurrent calls of
 * purgeWebhookData, runs once.
 */
import { sql } from "drizzle-orm";

import { closeDb, installDatabase, openDatabase } from "@/lib/db";
import { purgeWebhookData, type PurgeResult } from "@/lib/webhooks/retention";

import { startAlertWatch } from "./alerts-once";
import { checkResult, skipped, type CheckResult } from "./result";
import { seedConnection, seedOldRows } from "./seed";
import { compareWithLedger, deliver, Ledger, runPool, shuffle, type EventRecord, type StoredRow } from "./send";
import {
  adminUrl,
  createScenario,
  rowsOf,
  sleep,
  startConsole,
  withDatabase,
  type ConsoleServer,
  type Scenario,
} from "./server";

const NAME = "two instances on one PostgreSQL";
const EVENTS = 500;
const OLD_ROWS = 2000;
/** lib/webhooks/retention.ts runs its first purge this long after start. */
const FIRST_PURGE_MS = 30_000;

export async function twoInstancesCheck(): Promise<CheckResult[]> {
  if (!adminUrl)
    return [
      skipped(NAME, "SKIP (needs PostgreSQL)"),
      skipped("retention purge runs once", "SKIP (needs PostgreSQL)"),
      skipped("alerts once", "SKIP (needs PostgreSQL)"),
    ];
  const scenario = await createScenario("two");
  const servers: ConsoleServer[] = [];
  const alertWatch = await startAlertWatch();
  try {
    const keys = ["rel_two_server_key_00000000000000000001"];
    const connection = await withDatabase(scenario, async (db) => {
      const seeded = await seedConnection("Two", keys);
      await seedOldRows(db, seeded.id, OLD_ROWS, 200);
      return seeded;
    });
    servers.push(
      ...(await Promise.all([startConsole(scenario, alertWatch.env), startConsole(scenario, alertWatch.env)])),
    );
    const [a, b] = servers as [ConsoleServer, ConsoleServer];

    const ledger = new Ledger();
    const deliveries: Array<{ event: EventRecord; server: ConsoleServer }> = [];
    for (let i = 0; i < EVENTS; i++) {
      const event = ledger.newEvent();
      deliveries.push({ event, server: a }, { event, server: b });
      if (Math.random() < 0.3)
        for (let extra = 1 + Math.floor(Math.random() * 2); extra > 0; extra--)
          deliveries.push({ event, server: Math.random() < 0.5 ? a : b });
    }
    const started = performance.now();
    await runPool(shuffle(deliveries), 20, async ({ event, server }) =>
      ledger.record(event, await deliver(server.url, connection.token, event.raw, keys)),
    );
    const loadSeconds = (performance.now() - started) / 1000;

    // While the servers' first purge comes due: refused deliveries on both open one alert between them.
    const [alertsOnce, purge] = await Promise.all([
      alertWatch.check(scenario, servers, connection),
      serverPurge(scenario, servers),
    ]);
    const pools = await purgeThroughTwoPools(scenario, connection.id);
    for (const server of servers) await server.stop();

    const rows = await withDatabase(scenario, async (db) =>
      rowsOf<StoredRow>(
        await db.execute(
          sql`select event_id, delivery_count from webhook_events where connection_id = ${connection.id} and event_id not like 'old-%'`,
        ),
      ),
    );
    const comparison = compareWithLedger(ledger, rows, true);
    const counts = Object.entries(ledger.statusCounts)
      .map(([k, v]) => `${k}=${v}`)
      .join(" ");
    const notOk = ledger.deliveries - (ledger.statusCounts["200"] ?? 0);
    return [
      checkResult(
        NAME,
        `${EVENTS} events, ${ledger.deliveries} deliveries over 2 servers in ${loadSeconds.toFixed(1)} s (${counts}); ${comparison.rows} rows, ${comparison.exact} with delivery_count == 200s`,
        [
          ...comparison.problems,
          ...ledger.badAnswers,
          ...(notOk > 0 ? [`${notOk} deliveries not answered 200 without any fault`] : []),
        ],
      ),
      checkResult("retention purge runs once", `${purge.figures}; ${pools.figures}`, [
        ...purge.problems,
        ...pools.problems,
      ]),
      alertsOnce,
    ];
  } catch (error) {
    return [checkResult(NAME, "did not complete", [String((error as Error).stack ?? error)])];
  } finally {
    for (const server of servers) await server.kill9();
    await alertWatch.stop();
    await scenario.dispose();
  }
}

/** Waits for both servers' first purge; exactly one of them logs it, with every old row. */
async function serverPurge(
  scenario: Scenario,
  servers: ConsoleServer[],
): Promise<{ figures: string; problems: string[] }> {
  const latest = Math.max(...servers.map((s) => s.startedAt));
  await sleep(Math.max(0, latest + FIRST_PURGE_MS - Date.now()));
  let left = -1;
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    left = await withDatabase(scenario, async (db) =>
      Number(
        rowsOf<{ n: number }>(
          await db.execute(sql`select count(*)::int as n from webhook_events where event_id like 'old-%'`),
        )[0]?.n,
      ),
    );
    if (left === 0) break;
    await sleep(500);
  }
  await sleep(500); // the log line follows the commit
  const lines = servers.flatMap((s) => s.output().split("\n"));
  const purgeLines = lines.filter((l) => l.includes("retention purge") && !l.includes("failed"));
  const failedLines = lines.filter((l) => l.includes("retention purge failed"));
  const problems: string[] = [];
  if (left !== 0) problems.push(`${left} of ${OLD_ROWS} old events still there 50 s after start`);
  if (purgeLines.length !== 1)
    problems.push(
      `${purgeLines.length} "retention purge" log lines across both servers (want 1): ${purgeLines.join(" | ")}`,
    );
  else if (!purgeLines[0]!.includes(`"events":${OLD_ROWS}`))
    problems.push(`the purge line does not report ${OLD_ROWS} events: ${purgeLines[0]}`);
  if (failedLines.length > 0) problems.push(`purge failed: ${failedLines.join(" | ")}`);
  return {
    figures: `servers' own purge: ${OLD_ROWS} old events -> ${left} left, ${purgeLines.length} purge line(s)`,
    problems,
  };
}

/** purgeWebhookData started at the same moment on two pools (each call captures the installed database on entry). */
async function purgeThroughTwoPools(
  scenario: Scenario,
  connectionId: string,
): Promise<{ figures: string; problems: string[] }> {
  const rows = 20_000;
  const first = await openDatabase(scenario.target);
  const second = await openDatabase(scenario.target);
  try {
    await seedOldRows(first.db, connectionId, rows, 300);
    installDatabase(first);
    const one = purgeWebhookData();
    installDatabase(second);
    const two = purgeWebhookData();
    const settled = await Promise.allSettled([one, two]);
    const results = settled.map((s) => (s.status === "fulfilled" ? s.value : ({ error: String(s.reason) } as const)));
    const ran = results.filter((r): r is Extract<PurgeResult, { ran: true }> => "ran" in r && r.ran);
    const problems: string[] = [];
    for (const r of results) if ("error" in r) problems.push(`purge through a pool failed: ${r.error}`);
    if (ran.length !== 1)
      problems.push(`${ran.length} of 2 concurrent purges ran (want 1): ${JSON.stringify(results)}`);
    else if (ran[0]!.events !== rows) problems.push(`the purge deleted ${ran[0]!.events} events, not ${rows}`);
    return { figures: `two pools at once: ${JSON.stringify(results)}`, problems };
  } finally {
    await closeDb();
    await first.close();
  }
}
