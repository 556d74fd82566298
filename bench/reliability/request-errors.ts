/**
 * The logs check (d): a route handler and a page whose query fails with a secret-looking user id in its parameters
 * log only the logger's "request failed" line (instrumentation.ts takes over Next's whole print), and no spelling of
 * a webhook token posted with a `%` in its path reaches the output.
 */
import { sql } from "drizzle-orm";

import { checkResult, type CheckResult } from "./result";
import { seedConnection, seedUsers, users } from "./seed";
import { createScenario, sleep, startConsole, withDatabase, type ConsoleServer } from "./server";
import { fetchAs, signIn } from "./session";

const ROUTE_SECRET = "usr_reliability_route_secret_7f3a";
const PAGE_SECRET = "usr_reliability_page_secret_9c1e";

/** The spellings of a webhook URL with a `%` that a client (or a scanner) may send. */
function webhookPaths(token: string): string[] {
  const encoded = [...token].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join("");
  return [
    `${token}%zz`,
    `${token}%`,
    `${token}%E0%A4%A`,
    `${token}%2Fx`,
    `%${token}`,
    encoded,
    `${encoded}%zz`,
    `${token}%252`,
  ].map((rest) => `/api/webhooks/${rest}`);
}

/** The logger's JSON lines in the output. */
function loggedLines(output: string): Array<Record<string, unknown>> {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

export async function requestErrorsCheck(): Promise<CheckResult> {
  const scenario = await createScenario("request-errors");
  let server: ConsoleServer | undefined;
  try {
    const connection = await withDatabase(scenario, async (db) => {
      await seedUsers();
      const seeded = await seedConnection("Errors");
      await db.execute(sql.raw(`alter table webhook_events rename column device_name to device_name_moved`));
      return seeded;
    });
    server = await startConsole(scenario);
    const offset = server.output().length;
    const session = await signIn(server.url, users.support);
    const route = await fetchAs(session, `${server.url}/api/webhook-events?userId=${ROUTE_SECRET}`);
    const page = await fetchAs(session, `${server.url}/webhooks?userId=${PAGE_SECRET}`);
    const paths = webhookPaths(connection.token);
    const answers = await Promise.all(
      paths.map((path) =>
        fetch(`${server!.url}${path}`, { method: "POST", body: "{}" }).then(
          (r) => r.status,
          () => 0,
        ),
      ),
    );
    // Past the logger's wait for a claimed print (lib/request-errors.ts), so a line written late is seen.
    await sleep(1500);
    await server.stop();

    const output = server.output().slice(offset);
    const lines = loggedLines(output);
    const failed = (route: string) => lines.find((l) => l.message === "request failed" && l.route === route);
    const problems: string[] = [];
    if (route.status !== 500)
      problems.push(`GET /api/webhook-events answered ${route.status} (want 500: the route handler throws)`);
    const line = failed("/api/webhook-events");
    if (!line) problems.push(`no "request failed" line for /api/webhook-events in the output`);
    else if (line.routeType !== "route" || !String(line.error).startsWith("database error 42703"))
      problems.push(`the route's line is ${JSON.stringify(line)}`);
    // The page's failure has the same message and error: the logger writes it, or counts it as a repeat.
    const repeats = lines
      .filter((l) => l.message === "request failed" && typeof l.repeated === "number")
      .reduce((n, l) => n + Number(l.repeated), 0);
    if (!failed("/webhooks") && repeats === 0)
      problems.push(`no "request failed" line (or repeat count) for the page /webhooks in the output`);
    const needles: Array<[string, string]> = [
      ["the route's user id", ROUTE_SECRET],
      ["the page's user id", PAGE_SECRET],
      ["a failed query", "Failed query"],
      ["a query's parameters", "params:"],
      ["the webhook token", connection.token],
      ["the encoded webhook token", webhookPaths(connection.token)[5]!.slice("/api/webhooks/".length, 40)],
    ];
    for (const [name, value] of needles) {
      if (output.includes(value))
        problems.push(
          `the server output contains ${name}: ${output.slice(Math.max(0, output.indexOf(value) - 200), output.indexOf(value) + 100)}`,
        );
    }
    const printedByNext = output.split("\n").filter((l) => l.startsWith("⨯")).length;
    if (printedByNext > 0) problems.push(`Next printed ${printedByNext} error lines of its own`);
    return checkResult(
      "logs (d): errors Next caught",
      `route answered ${route.status}, page ${page.status}; ${lines.length} logger lines, ${printedByNext} of Next's own; ` +
        `${paths.length} webhook paths with a % answered ${[...new Set(answers)].join(", ")}`,
      problems,
    );
  } catch (error) {
    return checkResult("logs (d): errors Next caught", "did not complete", [String((error as Error).stack ?? error)]);
  } finally {
    await server?.kill9();
    await scenario.dispose();
  }
}
