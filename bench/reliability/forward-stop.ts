/**
 * The forward-stop check (PostgreSQL; docs/forwarding.md, "Forwards in flight at a stop"): two consoles on one
 * database, a destination answering after 2 s, 32 forwards in flight on instance A when it gets SIGTERM (a 1 s delay,
 * a 4 s grace period). A exits 0; no attempt that could finish is aborted; B sends the rest within 5 s; each event's
 * attempt is recorded once and reaches the handler once. Beside it a destination that never answers: A aborts its
 * attempts a second before the grace period ends, gives them back uncounted, and B sends them again at once.
 */
import { once } from "node:events";

import { sql } from "drizzle-orm";

import { createDestination } from "@/lib/destinations/destinations";

import { startForwardReceiver, startHangingHandler } from "../support/forward-receiver";
import { checkResult, skipped, type CheckResult } from "./result";
import { seedConnection } from "./seed";
import { deliver, Ledger } from "./send";
import { adminUrl, createScenario, rowsOf, sleep, startConsole, withDatabase, type ConsoleServer } from "./server";

const NAME = "SIGTERM during forwards to a slow destination";
const IN_FLIGHT = 32; // a destination's room across instances (DESTINATION_IN_FLIGHT)
const EVENTS = 2 * IN_FLIGHT;
const HANGING_EVENTS = 8;
const ANSWER_DELAY_MS = 2_000;
/** An attempt's limit (lib/destinations/forward.ts): B's attempts to the hanging destination are recorded after it. */
const ATTEMPT_TIMEOUT_MS = 10_000;
const STOP_ENV = { CONSOLE_SHUTDOWN_DELAY_SECONDS: "1", CONSOLE_SHUTDOWN_GRACE_SECONDS: "4" };
/** When A aborts what is left: a second before its grace period ends. */
const ABORT_AT_MS = 3_000;
const REST_WITHIN_MS = 5_000;

type DeliveryRow = { event_id: string; destination_id: string; attempts: number; rows: number; state: string };

/** How many deliveries A's log says it gave back at the stop. */
const givenBack = (server: ConsoleServer) =>
  server
    .output()
    .split("\n")
    .filter((line) => line.includes("their leases are given back"))
    .reduce((n, line) => n + Number((JSON.parse(line) as { deliveries?: number }).deliveries ?? 0), 0);

/** A connection with one destination to `url`, signed as the service. */
async function destinationTo(name: string, url: string, keys: string[]) {
  const connection = await seedConnection(name, keys);
  const created = await createDestination(
    { id: null, email: "reliability" },
    { connectionId: connection.id, name, url, signing: "service", eventTypes: [], verificationMethods: [] },
    { allowedHosts: ["127.0.0.1"] },
  );
  if (!created.ok) throw new Error(created.error);
  return { connection, id: created.id };
}

const seconds = (ms: number) => `+${(ms / 1000).toFixed(2)} s`;

export async function forwardStopCheck(): Promise<CheckResult> {
  if (!adminUrl) return skipped(NAME, "two consoles need PostgreSQL (DATABASE_URL)");
  const scenario = await createScenario("forward-stop");
  const servers: ConsoleServer[] = [];
  const keys = ["rel_forward_stop_server_key_00000000001"];
  const handler = await startForwardReceiver({ answerDelayMs: ANSWER_DELAY_MS });
  handler.acceptKeys(...keys);
  const hanging = await startHangingHandler();
  const env = { CONSOLE_FORWARD_ALLOWED_HOSTS: "127.0.0.1", ...STOP_ENV };
  try {
    const { slow, hangs } = await withDatabase(scenario, async () => ({
      slow: await destinationTo("Slow", handler.url, keys),
      hangs: await destinationTo("Hangs", hanging.url, keys),
    }));
    const a = await startConsole(scenario, env);
    servers.push(a);
    const ledger = new Ledger();
    for (const [count, { connection }] of [
      [EVENTS, slow],
      [HANGING_EVENTS, hangs],
    ] as const)
      for (const event of Array.from({ length: count }, () => ledger.newEvent()))
        ledger.record(event, await deliver(a.url, connection.token, event.raw, keys));
    // A alone takes the slow destination's room (the rest waits for it) and every hanging delivery.
    const inFlight = () => handler.delivered.size >= IN_FLIGHT && hanging.arrivals.length >= HANGING_EVENTS;
    if (!(await handler.waitUntil(inFlight, 10_000)))
      throw new Error(`only ${handler.delivered.size} + ${hanging.arrivals.length} forwards reached the handlers`);
    const exit = (once(a.child, "exit") as Promise<[number | null, NodeJS.Signals | null]>).then(([code, signal]) => ({
      code,
      signal: signal as string | null,
      at: Date.now(),
    }));
    const signalled = Date.now();
    a.child.kill("SIGTERM");
    // B starts now, as a rolling restart's replacement would: A, draining, takes nothing more.
    const b = await startConsole(scenario, env);
    servers.push(b);
    const bReady = Date.now();
    const timedOut = { code: null, signal: "timeout", at: NaN };
    const { code, signal, at: exitedAt } = await Promise.race([exit, sleep(15_000).then(() => timedOut)]);
    const allArrived = await handler.waitUntil(() => handler.delivered.size >= EVENTS, 15_000);
    await handler.waitUntil(() => hanging.arrivals.length >= 2 * HANGING_EVENTS, 5_000);
    const restAt = handler.lastNewDeliveryAt();
    const sentAgain = hanging.arrivals.slice(HANGING_EVENTS);
    // B's attempts recorded: the slow destination's answers, the hanging one's at its attempts' limit.
    await sleep(Math.max(ANSWER_DELAY_MS, (sentAgain.at(-1) ?? Date.now()) + ATTEMPT_TIMEOUT_MS - Date.now()) + 1_000);
    const rows = await withDatabase(scenario, async (db) =>
      rowsOf<DeliveryRow>(
        await db.execute(sql`
          select d.event_id, d.destination_id, d.attempts, d.state,
            (select count(*) from forward_attempts a where a.delivery_id = d.id)::int as rows
          from forward_deliveries d`),
      ),
    );
    const slowRows = rows.filter((d) => d.destination_id === slow.id);
    const notOnce = slowRows.filter((d) => d.rows !== 1 || d.attempts !== 1 || d.state !== "delivered");
    // An aborted attempt is none: each hanging delivery holds B's one attempt (failed at its limit), counted once.
    const hangingRows = rows.filter((d) => d.destination_id === hangs.id);
    const hangingNotOnce = hangingRows.filter((d) => d.rows !== 1 || d.attempts !== 1);
    const restMs = restAt - Math.max(signalled, bReady);
    const againMs = (sentAgain.at(-1) ?? NaN) - Math.max(signalled + ABORT_AT_MS, bReady);
    const problems = [
      ...handler.problems,
      ...ledger.badAnswers,
      ...(code === 0 ? [] : [`A exited with ${code ?? signal}, not 0`]),
      ...(givenBack(a) === HANGING_EVENTS ? [] : [`A gave back ${givenBack(a)}, not the ${HANGING_EVENTS} hanging`]),
      ...(allArrived ? [] : [`${EVENTS - handler.delivered.size} events never reached the handler`]),
      ...(restMs <= REST_WITHIN_MS
        ? []
        : [`B sent the rest ${restMs} ms after it could, not within ${REST_WITHIN_MS}`]),
      ...(sentAgain.length === HANGING_EVENTS && againMs <= 2_000
        ? []
        : [`B sent ${sentAgain.length} given back again, the last ${againMs} ms after it could`]),
      ...(slowRows.length === EVENTS ? [] : [`${slowRows.length} deliveries, not ${EVENTS}`]),
      ...notOnce
        .slice(0, 5)
        .map((d) => `${d.event_id}: ${d.rows} attempts recorded, ${d.attempts} counted, ${d.state}`),
      ...hangingNotOnce.map((d) => `${d.event_id} (hanging): ${d.rows} attempts recorded, ${d.attempts} counted`),
      ...(handler.deliveredTwice() === 0 ? [] : [`${handler.deliveredTwice()} events reached the handler twice`]),
    ];
    return checkResult(
      NAME,
      `${IN_FLIGHT} slow and ${HANGING_EVENTS} hanging forwards in flight on A at SIGTERM; A exited ${code ?? signal} at ` +
        `${seconds(exitedAt - signalled)}, ${givenBack(a)} given back; B ready at ${seconds(bReady - signalled)}, the ` +
        `rest sent by ${seconds(restAt - signalled)}, the given back by ${seconds((sentAgain.at(-1) ?? NaN) - signalled)}; ` +
        `${slowRows.length - notOnce.length}/${EVENTS} recorded once, ${hangingRows.length - hangingNotOnce.length}/` +
        `${HANGING_EVENTS} hanging with B's one attempt`,
      problems,
    );
  } catch (error) {
    return checkResult(NAME, "did not complete", [String((error as Error).stack ?? error)]);
  } finally {
    for (const server of servers) await server.kill9();
    await handler.close();
    await hanging.close();
    await scenario.dispose();
  }
}
