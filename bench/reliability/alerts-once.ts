/**
 * Part of the two-instances check: alerts open once across instances. Wrongly signed deliveries sent to both
 * consoles open one "Signatures refused" alert however their evaluators interleave, and each alert has one row and
 * one "alert.opened" notice (verified by tooling/notice-sink.ts).
 */
import crypto from "node:crypto";

import { sql } from "drizzle-orm";

import { startNoticeSink, type NoticeSink } from "@/tooling/notice-sink";

import { checkResult, type CheckResult } from "./result";
import { deliver } from "./send";
import { rowsOf, sleep, withDatabase, type ConsoleServer, type Scenario } from "./server";

const NAME = "an alert opens once across two instances";
const EVALUATE_SECONDS = 10;
const WRONG_KEY = "rel_two_rotated_key_0000000000000000009";

export type AlertWatch = {
  env: Record<string, string>;
  check: (
    scenario: Scenario,
    servers: ConsoleServer[],
    connection: { id: string; token: string },
  ) => Promise<CheckResult>;
  stop: () => Promise<void>;
};

/** The sink, and what the consoles need to evaluate often and notify it. */
export async function startAlertWatch(): Promise<AlertWatch> {
  const secret = `whsec_${crypto.randomBytes(24).toString("base64")}`;
  const sink: NoticeSink = await startNoticeSink({ webhookPort: 0, smtpPort: 0, secret });
  return {
    env: {
      CONSOLE_ALERT_EVALUATE_SECONDS: String(EVALUATE_SECONDS),
      CONSOLE_ALERT_WEBHOOK_URLS: sink.webhookUrl,
      CONSOLE_ALERT_WEBHOOK_SECRET: secret,
      CONSOLE_FORWARD_ALLOWED_HOSTS: "127.0.0.1",
    },
    stop: sink.stop,
    check: async (scenario, servers, connection) => {
      const started = Date.now();
      for (const server of servers)
        for (let i = 0; i < 3; i++)
          await deliver(server.url, connection.token, JSON.stringify({ id: crypto.randomUUID() }), [WRONG_KEY]);
      // Three evaluation periods: each console has tried at least twice, and the notice has been sent.
      await sleep(3 * EVALUATE_SECONDS * 1000);
      const alerts = await withDatabase(scenario, async (db) =>
        rowsOf<{ kind: string; state: string }>(
          await db.execute(sql`select kind, state from alerts where connection_id = ${connection.id}`),
        ),
      );
      const opened = sink.notices.filter((n) => n.type === "alert.opened");
      const problems: string[] = [];
      const kinds = alerts.map((a) => a.kind);
      if (kinds.filter((kind) => kind === "bad_signatures").length !== 1)
        problems.push(`alerts on the connection: ${JSON.stringify(alerts)} (want one bad_signatures)`);
      if (new Set(kinds).size !== kinds.length) problems.push(`one condition opened twice: ${JSON.stringify(alerts)}`);
      if (opened.length !== alerts.length)
        problems.push(`${opened.length} "alert.opened" notices received for ${alerts.length} alerts (want one each)`);
      if (sink.notices.some((n) => !n.verified)) problems.push("a notice's signature did not verify");
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      return checkResult(
        NAME,
        `6 refused deliveries over 2 servers: ${alerts.length} alert(s) (${kinds.join(", ")}), ${opened.length} opened notice(s), verified, within ${seconds} s`,
        problems,
      );
    },
  };
}
