/**
 * The crash check: kill -9 three times under load (a quarter of the events redelivered), restarted on the same
 * database. Each event answered 200 is stored once, its delivery_count its 200 answers plus at most its requests cut
 * off by a kill (those may have committed).
 */
import { sql } from "drizzle-orm";

import { checkResult, type CheckResult } from "./result";
import { seedConnection } from "./seed";
import { compareWithLedger, deliver, Ledger, resendUnacknowledged, runPool, shuffle, type StoredRow } from "./send";
import { createScenario, rowsOf, startConsole, withDatabase, type ConsoleServer } from "./server";

const ROUNDS = 3;
const EVENTS_PER_ROUND = 300;
const CONCURRENCY = 20;

export async function crashCheck(): Promise<CheckResult> {
  const scenario = await createScenario("crash");
  const servers: ConsoleServer[] = [];
  try {
    const keys = ["rel_crash_server_key_000000000000000001"];
    const connection = await withDatabase(scenario, () => seedConnection("Crash", keys));
    const ledger = new Ledger();
    const inFlightAtKill: number[] = [];

    for (let round = 1; round <= ROUNDS; round++) {
      const server = await startConsole(scenario);
      servers.push(server);
      const fresh = Array.from({ length: EVENTS_PER_ROUND }, () => ledger.newEvent());
      const retries = ledger.unacknowledged().filter((e) => !fresh.includes(e));
      const queue = shuffle([...fresh, ...fresh.filter(() => Math.random() < 0.25), ...retries]);
      const killAfter = Math.floor(queue.length * (0.35 + 0.3 * Math.random()));
      let done = 0;
      let inFlight = 0;
      let killing: Promise<void> | undefined;
      await runPool(
        queue,
        CONCURRENCY,
        async (event) => {
          inFlight += 1;
          const answer = await deliver(server.url, connection.token, event.raw, keys);
          inFlight -= 1;
          ledger.record(event, answer);
          done += 1;
          if (!killing && done >= killAfter) {
            inFlightAtKill.push(inFlight);
            killing = server.kill9();
          }
        },
        () => killing !== undefined,
      );
      await killing;
    }

    const last = await startConsole(scenario);
    servers.push(last);
    const resent = await resendUnacknowledged(ledger, last.url, connection.token, keys);
    await last.stop();

    const rows = await withDatabase(scenario, async (db) =>
      rowsOf<StoredRow>(
        await db.execute(
          sql`select event_id, delivery_count from webhook_events where connection_id = ${connection.id}`,
        ),
      ),
    );
    const comparison = compareWithLedger(ledger, rows, false);
    const neverAcknowledged = ledger.unacknowledged().length;
    const problems = [
      ...comparison.problems,
      ...ledger.badAnswers,
      ...(neverAcknowledged > 0 ? [`${neverAcknowledged} events never answered 200, even after the restart`] : []),
    ];
    const counts = Object.entries(ledger.statusCounts)
      .map(([k, v]) => `${k}=${v}`)
      .join(" ");
    const figures =
      `${ledger.events.size} events, ${ledger.deliveries} deliveries (${counts}), ${ROUNDS} kills with ${inFlightAtKill.join("/")} in flight, ` +
      `${resent} resent after restart; ${comparison.rows} rows: ${comparison.exact} with delivery_count == 200s, ` +
      `${comparison.committedCutOffs} also counting a cut-off request that had committed`;
    return checkResult("crash (kill -9 under load)", figures, problems);
  } catch (error) {
    return checkResult("crash (kill -9 under load)", "did not complete", [String((error as Error).stack ?? error)]);
  } finally {
    for (const server of servers) await server.kill9();
    await scenario.dispose();
  }
}
