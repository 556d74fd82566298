/**
 * The logs check (a–c; request-errors.ts is d): a refused insert answers 503 JSON with nothing of the event in the
 * output; on PostgreSQL a database outage under load loses no acknowledged event; a refused server action's output
 * holds no token, hash or email (docs/development.md, "Reliability suite").
 */
import fs from "node:fs";
import path from "node:path";

import { sql } from "drizzle-orm";

import { actionCrashMessage } from "@/lib/call-action";
import { consoleUsers } from "@/lib/db/schema";
import { hashPasswordLinkToken, newPasswordLink } from "@/lib/team/password-link";

import { checkResult, skipped, type CheckResult } from "./result";
import { seedConnection } from "./seed";
import { compareWithLedger, deliver, isErrorJson, Ledger, resendUnacknowledged, type StoredRow } from "./send";
import {
  adminQuery,
  adminUrl,
  createScenario,
  distDir,
  rowsOf,
  sleep,
  startConsole,
  withDatabase,
  type ConsoleServer,
  type Scenario,
} from "./server";

const FAIL_USER = "usr_reliability_fail";
const REFUSED_PASSWORD_EMAIL = "leak.check.password@reliability.test";
const OUTAGE_MS = 5000;
/**
 * The driver words a lost database several ways (terminated, not queryable, not accepting connections), how many
 * of them a run meets is timing; each message writes a first line and a repeat count per wording, so the cap is per key.
 */
const MAX_OUTAGE_LINES = 30;
const MAX_LINES_PER_KEY = 2;

export async function logsCheck(): Promise<CheckResult[]> {
  const scenario = await createScenario("logs");
  let server: ConsoleServer | undefined;
  try {
    const keys = ["rel_logs_server_key_0000000000000000001"];
    const { logs, outage, passwordToken } = await withDatabase(scenario, async (db) => {
      await db.execute(
        sql.raw(`alter table webhook_events add constraint reliability_reject check (user_id <> '${FAIL_USER}')`),
      );
      await db.execute(
        sql.raw(
          `alter table console_users add constraint reliability_refuse_password check (password_hash is null or email <> '${REFUSED_PASSWORD_EMAIL}')`,
        ),
      );
      const { stored, link } = newPasswordLink();
      await db
        .insert(consoleUsers)
        .values({ email: REFUSED_PASSWORD_EMAIL, name: "Rel Pending", role: "support", passwordHash: null, ...stored });
      return {
        logs: await seedConnection("Logs", keys),
        outage: await seedConnection("Outage", keys),
        passwordToken: new URL(link.url).hash.slice(1),
      };
    });
    server = await startConsole(scenario);

    const a = await failedInsert(server, logs.token, keys);
    const c = await failedServerAction(server, passwordToken);
    const b = adminUrl ? await databaseOutage(server, scenario, outage, keys) : undefined;
    await server.stop();

    const output = server.output();
    const leaked = a.needles.filter((n) => output.includes(n.value)).map((n) => n.name);
    const leakedByAction = c.needles.filter((n) => output.includes(n.value)).map((n) => n.name);
    const results = [
      checkResult(
        "logs (a): failed insert",
        `answered ${a.status} ${a.body.slice(0, 120)}; output ${output.length} bytes, event id in output: ${output.includes(a.eventId) ? "yes" : "no"}, leaked: ${leaked.join(", ") || "none"}`,
        [...a.problems, ...leaked.map((name) => `the server output contains the event's ${name}`)],
      ),
      checkResult(
        "logs (c): failed server action",
        `set password answered ${c.status}; logged through the console's logger: ${output.includes('"message":"server action failed"') ? "yes" : "no"}, leaked: ${leakedByAction.join(", ") || "none"}`,
        [...c.problems, ...leakedByAction.map((name) => `the server output contains the ${name}`)],
      ),
    ];
    if (!b) results.push(skipped("logs (b): database outage", "SKIP (needs PostgreSQL)"));
    else {
      const rows = await withDatabase(scenario, async (db) =>
        rowsOf<StoredRow>(
          await db.execute(sql`select event_id, delivery_count from webhook_events where connection_id = ${outage.id}`),
        ),
      );
      const comparison = compareWithLedger(b.ledger, rows, false);
      const lines = output
        .slice(b.outputOffset)
        .split("\n")
        .filter((l) => l.trim());
      const counts = Object.entries(b.ledger.statusCounts)
        .map(([k, v]) => `${k}=${v}`)
        .join(" ");
      const problems = [...b.problems, ...comparison.problems, ...b.ledger.badAnswers];
      problems.push(...floodsIn(lines));
      results.push(
        checkResult(
          "logs (b): database outage",
          `${b.ledger.events.size} events, ${b.ledger.deliveries} deliveries (${counts}), ${b.during} answered during the ${OUTAGE_MS / 1000} s outage, ` +
            `${comparison.rows} rows (${comparison.exact} exact), ${lines.length} log lines since the outage began`,
          problems,
        ),
      );
    }
    return results;
  } catch (error) {
    return [checkResult("logs", "did not complete", [String((error as Error).stack ?? error)])];
  } finally {
    await server?.kill9();
    await scenario.dispose();
  }
}

async function failedInsert(server: ConsoleServer, token: string, keys: readonly string[]) {
  const problems: string[] = [];
  const ledger = new Ledger();
  const sanity = await deliver(server.url, token, ledger.newEvent().raw, keys);
  if (sanity.kind !== "status" || sanity.status !== 200)
    problems.push(`a normal event was answered ${JSON.stringify(sanity)}`);

  const marker = `reliability-marker-${Date.now().toString(36)}`;
  const event = ledger.newEvent({
    userId: FAIL_USER,
    email: "leak.check.reliability@example.com",
    phoneNumber: "+15550009876",
    deviceName: `${marker}-device`,
    userAuthenticatorId: `${marker}-ua`,
  });
  const answer = await deliver(server.url, token, event.raw, keys);
  const status = answer.kind === "status" ? answer.status : 0;
  const body = answer.kind === "status" ? answer.body : answer.error;
  if (status !== 503 || !isErrorJson(body))
    problems.push(
      `the failing insert was answered ${status} ${body.slice(0, 200)} (want 503 JSON {error, errorDescription})`,
    );
  await sleep(300);
  const needles = [
    { name: "userId", value: FAIL_USER },
    { name: "email", value: "leak.check.reliability@example.com" },
    { name: "phone number", value: "+15550009876" },
    { name: "deviceName", value: `${marker}-device` },
    { name: "userAuthenticatorId", value: `${marker}-ua` },
    { name: "raw body", value: event.raw.slice(0, 60) },
    { name: "raw body (JSON-escaped)", value: JSON.stringify(event.raw).slice(1, 61) },
  ];
  return { status, body, problems, needles, eventId: event.eventId };
}

/**
 * The set-password form's server action, called as the form calls it (its id read from the build's server reference
 * manifest), with a password the database then refuses to store.
 */
/** A server action's id in the build (`next-action` header), by the file and name that export it. */
function serverActionId(filename: string, exportedName: string): string | undefined {
  const manifest = JSON.parse(fs.readFileSync(path.join(distDir, "server/server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { filename?: string; exportedName?: string }>;
  };
  return Object.entries(manifest.node).find(([, a]) => a.filename === filename && a.exportedName === exportedName)?.[0];
}

async function failedServerAction(server: ConsoleServer, token: string) {
  const problems: string[] = [];
  const password = `reliability-password-${Date.now().toString(36)}`;
  const needles = [
    { name: "set-password token", value: token },
    { name: "set-password token's hash", value: hashPasswordLinkToken(token) },
    { name: "password hash", value: "$argon2id$" },
    { name: "email", value: REFUSED_PASSWORD_EMAIL },
    { name: "password", value: password },
  ];
  const actionId = serverActionId("lib/team/actions.ts", "setPasswordAction");
  if (!actionId) return { status: 0, needles, problems: [`found no setPasswordAction in ${distDir}'s server actions`] };
  const response = await fetch(`${server.url}/set-password`, {
    method: "POST",
    headers: {
      "next-action": actionId,
      "content-type": "text/plain;charset=UTF-8",
      accept: "text/x-component",
      origin: server.url,
    },
    body: JSON.stringify([{ token, password, confirmation: password }]),
  });
  const body = await response.text();
  if (response.status !== 200 || !body.includes(actionCrashMessage)) {
    problems.push(`the action was answered ${response.status} ${body.slice(0, 200)} (want 200 with the crash message)`);
  }
  await sleep(300);
  return { status: response.status, needles, problems };
}

/** Load at concurrency 10; the database refuses connections (and loses the server's sessions) for OUTAGE_MS. */
async function databaseOutage(
  server: ConsoleServer,
  scenario: Scenario,
  connection: { token: string },
  keys: readonly string[],
) {
  const name = scenario.databaseName!;
  const ledger = new Ledger();
  const problems: string[] = [];
  let phase: "before" | "during" | "after" = "before";
  let during = 0;
  let stop = false;
  const worker = async () => {
    while (!stop) {
      const event = ledger.newEvent();
      const sentIn = phase;
      const answer = await deliver(server.url, connection.token, event.raw, keys);
      ledger.record(event, answer);
      if (sentIn === "during" && phase === "during") during += 1;
      if (answer.kind !== "status") problems.push(`a request ${sentIn} the outage failed: ${answer.error}`);
      else if (answer.status !== 200 && (answer.status !== 503 || !isErrorJson(answer.body, "unavailable"))) {
        problems.push(
          `answered ${answer.status} ${answer.body.slice(0, 160)} ${sentIn} the outage (want 200, or 503 {error:"unavailable"})`,
        );
      }
    }
  };
  const load = Promise.all(Array.from({ length: 10 }, worker));
  await sleep(1500);
  const outputOffset = server.output().length;
  await adminQuery(`alter database ${name} allow_connections false`);
  await adminQuery(
    `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
    [name],
  );
  phase = "during";
  await sleep(OUTAGE_MS);
  await adminQuery(`alter database ${name} allow_connections true`);
  phase = "after";
  await sleep(2000);
  stop = true;
  await load;
  await resendUnacknowledged(ledger, server.url, connection.token, keys);
  const unacknowledged = ledger.unacknowledged().length;
  if (unacknowledged > 0) problems.push(`${unacknowledged} events still not answered 200 after the database came back`);
  if ((ledger.statusCounts["503"] ?? 0) === 0) problems.push("no 503 at all: did the outage happen?");
  return { ledger, problems, during, outputOffset };
}

/** What makes an outage's log lines a flood: too many in all, or one message and error not collapsed. */
function floodsIn(lines: readonly string[]): string[] {
  const perKey = new Map<string, number>();
  for (const line of lines) {
    const key = keyOf(line);
    perKey.set(key, (perKey.get(key) ?? 0) + 1);
  }
  const problems = [...perKey]
    .filter(([, count]) => count > MAX_LINES_PER_KEY)
    .map(([key, count]) => `${count} lines (at most ${MAX_LINES_PER_KEY}) for ${key}`);
  if (lines.length > MAX_OUTAGE_LINES)
    problems.push(`the outage wrote ${lines.length} log lines (at most ${MAX_OUTAGE_LINES}):\n${lines.join("\n")}`);
  return problems;
}

/** The logger's repeat key (lib/logger.ts): the message, error and reason; a line not the logger's is its own key. */
function keyOf(line: string): string {
  try {
    const fields = JSON.parse(line) as Record<string, unknown>;
    return JSON.stringify([fields.message, fields.error, fields.reason]);
  } catch {
    return line;
  }
}
