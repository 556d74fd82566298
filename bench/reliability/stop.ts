/**
 * The stop checks (server.mjs, docs/operations.md "Stopping"): a SIGTERM under keep-alive load (readiness 503 before
 * the listener closes, an exit 0 within 10 s, no request reset that arrived before the listener closed, each 2xx stored
 * once), and a SIGTERM to `npm start` reaching the server.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import http from "node:http";

import { sql } from "drizzle-orm";

import { stopProcess, waitForUrl } from "@/tooling/processes";

import { checkResult, skipped, type CheckResult } from "./result";
import { seedConnection } from "./seed";
import { compareWithLedger, deliver, Ledger, type StoredRow } from "./send";
import {
  adminUrl,
  createScenario,
  distDir,
  freePort,
  rowsOf,
  secrets,
  sleep,
  startConsole,
  withDatabase,
  type ConsoleServer,
} from "./server";

const CLIENTS = 16;
const DELAY_SECONDS = 5; // the default, as a load balancer would meet it

/**
 * GET /api/ready on a connection of its own (none kept alive): its status, or null when refused or unanswered in 10 s
 * (the embedded database runs in the server's thread: under load it holds the event loop for seconds).
 */
function readiness(url: string): Promise<number | null> {
  return new Promise((resolve) => {
    const request = http.get(`${url}/api/ready`, { agent: false, timeout: 10_000 }, (response) => {
      response.resume();
      resolve(response.statusCode ?? null);
    });
    request.on("error", () => resolve(null));
    request.on("timeout", () => request.destroy());
  });
}

/** When the server's log says its listener closed (its line's own time), or NaN. */
function listenerClosedAt(server: ConsoleServer): number {
  const line = server
    .output()
    .split("\n")
    .find((l) => l.includes("the listener is closed"));
  return line ? Date.parse((JSON.parse(line) as { time: string }).time) : NaN;
}

export async function stopUnderLoadCheck(): Promise<CheckResult> {
  const name = "SIGTERM under keep-alive load";
  // The embedded database answers in the server's thread: saturated by 16 writers it holds the event loop, and a
  // connection waiting in the kernel's queue when the listener closes is reset (docs/operations.md, "Stopping").
  if (!adminUrl) return skipped(name, "SKIP (needs PostgreSQL)");
  const scenario = await createScenario("stop");
  let server: ConsoleServer | undefined;
  try {
    const keys = ["rel_stop_server_key_0000000000000000001"];
    const connection = await withDatabase(scenario, () => seedConnection("Stop", keys));
    server = await startConsole(scenario, { CONSOLE_SHUTDOWN_DELAY_SECONDS: String(DELAY_SECONDS) });
    const { url, child } = server;
    await waitForUrl(`${url}/api/ready`, 30_000, child);

    const ledger = new Ledger();
    const sent: Array<{ at: number; kind: string; status?: number; error?: string }> = [];
    let exited = false;
    const exit = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
    void exit.then(() => (exited = true));
    // Each client sends on the fetch's kept-alive connections, one request after another, as a proxy would.
    const clients = Array.from({ length: CLIENTS }, async () => {
      while (!exited) {
        const event = ledger.newEvent();
        const at = Date.now();
        const answer = await deliver(url, connection.token, event.raw, keys);
        ledger.record(event, answer);
        sent.push({
          at,
          kind: answer.kind,
          ...(answer.kind === "status" ? { status: answer.status } : { error: answer.error }),
        });
        if (answer.kind === "refused") await sleep(50);
      }
    });
    // A readiness request every 100 ms, each on its own (one waiting on a busy database holds up no other); only those
    // sent after the signal count, as a busy embedded database may answer one 503 (unavailable) before it.
    let first503 = Infinity;
    let signalled = Infinity;
    const watch = (async () => {
      const asked: Array<Promise<void>> = [];
      while (!exited) {
        const sent = Date.now();
        asked.push(
          readiness(url).then((status) => {
            if (status === 503 && sent >= signalled) first503 = Math.min(first503, Date.now());
          }),
        );
        await sleep(100);
      }
      await Promise.all(asked);
    })();

    await sleep(2_000);
    signalled = Date.now();
    child.kill("SIGTERM");
    const [code, signal] = await Promise.race([exit, sleep(20_000).then(() => [null, "timeout"] as const)]);
    const exitedAt = Date.now();
    exited = true;
    await Promise.all([...clients, watch]);
    const closedAt = listenerClosedAt(server);

    const rows = await withDatabase(scenario, async (db) =>
      rowsOf<StoredRow>(
        await db.execute(
          sql`select event_id, delivery_count from webhook_events where connection_id = ${connection.id}`,
        ),
      ),
    );
    const comparison = compareWithLedger(ledger, rows, true);
    const cutBeforeClose = sent.filter((s) => s.kind === "cut" && !(s.at >= closedAt));
    const cutAfter = sent.filter((s) => s.kind === "cut" && s.at >= closedAt).length;
    const refused = sent.filter((s) => s.kind === "refused").length;
    const notOk = sent.filter((s) => s.kind === "status" && s.status !== 200);
    const seconds = (exitedAt - signalled) / 1000;
    const problems = [
      ...(code === 0 ? [] : [`exited with ${code ?? signal}, not 0`]),
      ...(seconds <= 10 ? [] : [`exited ${seconds.toFixed(1)} s after SIGTERM (limit 10 s)`]),
      ...(Number.isNaN(closedAt) ? ["the server never logged that its listener closed"] : []),
      ...(first503 < closedAt ? [] : ["readiness did not say 503 before the listener closed"]),
      ...cutBeforeClose.map((s) => `reset at +${s.at - signalled} ms, before the listener closed: ${s.error}`),
      ...notOk.slice(0, 5).map((s) => `answered ${s.status} at +${s.at - signalled} ms`),
      ...comparison.problems,
    ];
    return checkResult(
      name,
      `${sent.length} requests from ${CLIENTS} keep-alive clients, ${ledger.statusCounts["200"] ?? 0} stored; ` +
        `readiness 503 at ${Number.isFinite(first503) ? `+${first503 - signalled} ms` : "no time"}, listener closed at ` +
        `+${closedAt - signalled} ms, exit ${code ?? signal} at +${seconds.toFixed(2)} s; ` +
        `${cutBeforeClose.length} reset before the close, ${cutAfter} after, ${refused} refused after`,
      problems,
    );
  } catch (error) {
    return checkResult(name, "did not complete", [String((error as Error).stack ?? error)]);
  } finally {
    if (server) await server.kill9();
    await scenario.dispose();
  }
}

/** `npm start` is `exec node server.mjs`: a SIGTERM to npm alone (PID 1 in a container) stops the server. */
export async function npmStartStopCheck(): Promise<CheckResult> {
  const name = "SIGTERM to npm start stops the server";
  const scenario = await createScenario("npm-start");
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const npm = spawn("npm", ["start", "--silent"], {
    env: {
      ...process.env,
      ...secrets,
      ...scenario.env,
      NEXT_DIST_DIR: distDir,
      NEXTAUTH_URL: url,
      CONSOLE_TRUSTED_PROXY_HOPS: "0",
      HOSTNAME: "127.0.0.1",
      PORT: String(port),
      CONSOLE_SHUTDOWN_DELAY_SECONDS: "1",
    },
    stdio: "ignore",
    detached: true,
  });
  try {
    await waitForUrl(`${url}/api/ready`, 60_000, npm);
    const exit = once(npm, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
    const signalled = Date.now();
    process.kill(npm.pid!, "SIGTERM"); // npm alone, not its group
    const [code, signal] = await Promise.race([exit, sleep(15_000).then(() => [null, "timeout"] as const)]);
    await sleep(500);
    const groupLeft = (() => {
      try {
        process.kill(-npm.pid!, 0);
        return true;
      } catch {
        return false;
      }
    })();
    const stillServing = (await readiness(url)) !== null;
    return checkResult(
      name,
      `npm exited ${code ?? signal} ${((Date.now() - signalled) / 1000).toFixed(1)} s after SIGTERM`,
      [
        ...(code === 0 ? [] : [`npm exited with ${code ?? signal}, not 0`]),
        ...(groupLeft ? ["a process of npm start's group was still running"] : []),
        ...(stillServing ? ["the server still answered after npm exited"] : []),
      ],
    );
  } catch (error) {
    return checkResult(name, "did not complete", [String((error as Error).stack ?? error)]);
  } finally {
    await stopProcess(npm, { graceMs: 0 });
    try {
      process.kill(-npm.pid!, "SIGKILL"); // whatever of its group outlived it
    } catch {
      /* the group is gone */
    }
    await scenario.dispose();
  }
}
