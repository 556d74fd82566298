/**
 * The forwarding check: kill -9 mid-load while a destination takes a connection's events (on PostgreSQL with a second
 * console beside it); then every stored event reaches the handler at least once, verified, and none is ever sent
 * twice at the same time.
 */
import { sql } from "drizzle-orm";

import { createDestination } from "@/lib/destinations/destinations";

import { startForwardReceiver } from "../support/forward-receiver";
import { checkResult, type CheckResult } from "./result";
import { seedConnection } from "./seed";
import { deliver, Ledger, resendUnacknowledged, runPool } from "./send";
import { adminUrl, createScenario, rowsOf, sleep, startConsole, withDatabase, type ConsoleServer } from "./server";

const NAME = "forwarding through kill -9";
const EVENTS = 400;
const CONCURRENCY = 20;
const ANSWER_DELAY_MS = 20;
const SETTLE_TIMEOUT_MS = 90_000;

export async function forwardCheck(): Promise<CheckResult> {
  const scenario = await createScenario("forward");
  const servers: ConsoleServer[] = [];
  const keys = ["rel_forward_server_key_0000000000000001"];
  const handler = await startForwardReceiver({ answerDelayMs: ANSWER_DELAY_MS });
  handler.acceptKeys(...keys);
  const env = { CONSOLE_FORWARD_ALLOWED_HOSTS: "127.0.0.1" };
  try {
    const connection = await withDatabase(scenario, async () => {
      const seeded = await seedConnection("Forward", keys);
      const created = await createDestination(
        { id: null, email: "reliability" },
        {
          connectionId: seeded.id,
          name: "Handler",
          url: handler.url,
          signing: "service",
          eventTypes: [],
          verificationMethods: [],
        },
        { allowedHosts: ["127.0.0.1"] },
      );
      if (!created.ok) throw new Error(created.error);
      return seeded;
    });
    const first = await startConsole(scenario, env);
    servers.push(first);
    // On PostgreSQL a second console shares the work from the start: their workers must never overlap.
    if (adminUrl) servers.push(await startConsole(scenario, env));

    const ledger = new Ledger();
    const events = Array.from({ length: EVENTS }, () => ledger.newEvent());
    let done = 0;
    let killing: Promise<void> | undefined;
    await runPool(events, CONCURRENCY, async (event) => {
      const server = servers[done % servers.length]!;
      ledger.record(event, await deliver(server.url, connection.token, event.raw, keys));
      done += 1;
      if (!killing && done >= EVENTS / 2) killing = first.kill9();
    });
    await killing;
    // The other console (PostgreSQL) stops too, so that what either had taken is nobody's: due now, as
    // if its 60 s lease had run out (on PGlite the database is free again once the console is down).
    for (const server of servers.slice(1)) await server.stop();
    await withDatabase(scenario, (db) =>
      db.execute(sql`update forward_deliveries set due_at = now() where state = 'pending' and due_at > now()`),
    );
    const restarted = await startConsole(scenario, env);
    servers.push(restarted);
    const resent = await resendUnacknowledged(ledger, restarted.url, connection.token, keys);

    const acknowledged = [...ledger.events.values()].filter((e) => e.ok > 0).map((e) => e.eventId);
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    while (Date.now() < deadline && acknowledged.some((id) => !handler.delivered.has(id))) await sleep(250);
    // PGlite is opened by one process at a time: the console stops before the check reads what is stored.
    await restarted.stop();
    const stored = await withDatabase(scenario, async (db) =>
      rowsOf<{ event_id: string }>(
        await db.execute(sql`select event_id from webhook_events where connection_id = ${connection.id}`),
      ).map((r) => r.event_id),
    );
    const missing = stored.filter((id) => !handler.delivered.has(id));
    const twice = handler.deliveredTwice();
    const problems = [
      ...handler.problems,
      ...ledger.badAnswers,
      ...(missing.length > 0
        ? [`${missing.length} stored events never reached the handler (e.g. ${missing.slice(0, 3).join(", ")})`]
        : []),
    ];
    const figures =
      `${stored.length} events stored over ${adminUrl ? 2 : 1} console(s), one killed mid-load (${resent} resent after restart); ` +
      `${handler.delivered.size} reached the handler, ${twice} of them more than once (at least once), none twice at the same time`;
    return checkResult(NAME, figures, problems);
  } catch (error) {
    return checkResult(NAME, "did not complete", [String((error as Error).stack ?? error)]);
  } finally {
    for (const server of servers) await server.kill9();
    await handler.close();
    await scenario.dispose();
  }
}
