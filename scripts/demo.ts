import path from "node:path";

import { STORY_INCIDENTS } from "@/emulator/server";
import { roleForGroups } from "@/lib/auth/sso-claims";
import { errorMessage } from "@/lib/error-message";
import { demoOidcGroups, demoOidcUsers } from "@/tooling/oidc-users";

import { DEMO_ALERTS } from "./demo-alerts";
import { DEMO_OIDC_NAME, demoUsers, logTail, startDemoStack, terminal, type DemoStack } from "./demo-stack";
import { readPort } from "./ports.mjs";

/**
 * npm run demo: the demo stack (./demo-stack.ts) on PORT (3000) and its servers on ports of their own (docs/demo.md,
 * "The demo"); the banner is the last thing it prints, and the request logs go to .data/demo/demo.log.
 */
const dataDir = path.resolve(".data/demo");
const logFile = path.join(dataDir, "demo.log");
const PORT_VARIABLES = ["PORT", "EMULATOR_PORT", "OIDC_PORT", "TENANT_APP_PORT", "NOTICE_PORT", "SMTP_PORT"] as const;
const port = (env: (typeof PORT_VARIABLES)[number], fallback: number) => ({ port: readPort(env, fallback), env });

/** What signing in as a demo provider user gives, for the banner. */
function ssoOutcome(groups: string[], emailVerified: boolean): string {
  if (!emailVerified) return "refused: email not verified";
  const role = roleForGroups(groups, { adminGroups: [demoOidcGroups.admin], supportGroups: [demoOidcGroups.support] });
  return role
    ? `${role} (groups: ${groups.join(", ")})`
    : `refused: in no console group (groups: ${groups.join(", ")})`;
}

/** What the story makes the alerts do, for the banner (docs/demo.md says the same). */
function alertsLines(stack: DemoStack): string {
  const [first = "the first connection", second = first] = stack.connectionNames;
  const { badSignatures, destinationFailingMinutes } = DEMO_ALERTS.thresholds;
  const failingAt = Math.round((TENANT_APP_OUTAGE.atSeconds + destinationFailingMinutes * 60) / 60);
  return `  Alerts, evaluated every ${DEMO_ALERTS.evaluateSeconds} s: a banner on every page while one is open, and the Alerts page
  (${stack.consoleUrl}/alerts) lists them. ${first}'s thresholds are lowered for the demo (bad signatures ${badSignatures},
  destination failing ${destinationFailingMinutes} min); ${second} keeps the defaults:
    - by +${STORY_INCIDENTS.badSignatures.atSeconds + DEMO_ALERTS.evaluateSeconds} s: "Signatures refused" on ${first}, for the rotated-key burst;
    - about +2 min: "Late events" on ${second}, for an event reported more than 24 h after its expiry (one
      every 2 min or so: it stays open);
    - about +${failingAt} min: "Destination failing" on ${first}, while the tenant app is down (on ${second}, the
      default 60 min is not reached);
    each one resolves ${DEMO_ALERTS.holdSeconds / 60} min after its condition clears.
  Notices (Standard Webhooks, verified by the sink, and email to ${DEMO_ALERTS.emailTo}): ${stack.noticeSink.pageUrl}`;
}

function banner(stack: DemoStack): string {
  const { badSignatures, outage } = STORY_INCIDENTS;
  const relative = path.relative(process.cwd(), stack.logFile);
  const urls = [
    stack.consoleUrl,
    stack.emulator.url,
    stack.oidcIssuer,
    stack.tenantApp.url,
    stack.noticeSink.pageUrl,
    stack.noticeSink.smtpUrl,
  ];
  const ports = urls.map((url, i) => `${PORT_VARIABLES[i]}=${new URL(url).port}`).join(" ");
  return `
  Tenant Console demo is running: ${stack.consoleUrl}

    admin:   ${demoUsers[0].email} / ${demoUsers[0].password}
    support: ${demoUsers[1].email} / ${demoUsers[1].password}

  Single sign-on: press "Sign in with ${DEMO_OIDC_NAME}", then type a login at the local OpenID Connect
  provider (${stack.oidcIssuer}), with any password:
${demoOidcUsers.map((u) => `    ${u.login.padEnd(5)} ${ssoOutcome(u.groups, u.emailVerified)}`).join("\n")}

  Connections: ${stack.connectionNames.join(", ")}, with ${stack.history.days} days of demo history (${stack.history.events} events and
  ${stack.history.rejections} rejections; their event ids start with demo-history-).
  The service emulator (${stack.emulator.url}/_emulator/state) plays a story:
    - an authenticator expires every few seconds, some of them reported hours late;
    - at +${badSignatures.atSeconds} s a few deliveries are signed with a rotated key: refused (bad signature), then retried;
    - at +${outage.atSeconds} s the receiver is down for ${outage.seconds} s, and the retries catch up.
  Forwarding: each connection forwards its events, signed as the service, to the tenant app
  (${stack.tenantApp.url}), which verifies them with the service's SDK; at +${TENANT_APP_OUTAGE.atSeconds} s it answers 503
  for ${TENANT_APP_OUTAGE.seconds / 60} min, and the console's retries bring those events in (Destinations page).
${alertsLines(stack)}

  Request logs: ${relative}
  Ports: ${ports}   Ctrl+C stops the demo.
`;
}

/**
 * When the tenant app goes down in the demo's story, after the receiver's own outage is over: for 6 min,
 * so that the first connection's destination has failed for its alert threshold (5 min) with a minute
 * to spare, and "Destination failing" opens before the app is back.
 */
const TENANT_APP_OUTAGE = { atSeconds: 120, seconds: 360 } as const;

const startedAt = Date.now();

async function main() {
  terminal.out(
    "Starting the demo: database with a week of history, service emulator, single sign-on, notice sink, console…\n",
  );
  const stack = await startDemoStack({
    console: port("PORT", 3000),
    emulator: port("EMULATOR_PORT", 4010),
    oidc: port("OIDC_PORT", 4020),
    tenantApp: port("TENANT_APP_PORT", 4050),
    notices: port("NOTICE_PORT", 4080),
    smtp: port("SMTP_PORT", 4025),
    dataDir,
    logFile,
  });
  let stopping = false;
  const shutdown = async () => {
    stopping = true;
    await stack.stop();
    process.exit(0);
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
  void stack.consoleExited.then(async (code) => {
    if (stopping) return;
    terminal.err(
      `\nThe console stopped (exit code ${code}). Its last lines, from ${stack.logFile}:\n${logTail(stack.logFile)}\n`,
    );
    await stack.stop();
    process.exit(code || 1);
  });
  setTimeout(
    () => stack.tenantApp.failFor(TENANT_APP_OUTAGE.seconds * 1000),
    TENANT_APP_OUTAGE.atSeconds * 1000,
  ).unref();
  terminal.out(banner(stack));
}

main().catch((error: unknown) => {
  terminal.err(`\nThe demo could not start: ${errorMessage(error)}\n`);
  const tail = logTail(logFile, startedAt);
  if (tail) terminal.err(`\nThe last lines of ${logFile}:\n${tail}\n`);
  process.exit(1);
});
