import path from "node:path";
import { STORY_INCIDENTS } from "@/emulator/server";
import { roleForGroups } from "@/lib/auth/sso-claims";
import { errorMessage } from "@/lib/logger";
import { DEMO_OIDC_NAME, demoUsers, logTail, startDemoStack, terminal, type DemoStack } from "./demo-stack";
import { demoOidcGroups, demoOidcUsers } from "@/tooling/oidc-users";

/**
 * npm run demo: the demo stack (scripts/demo-stack.ts) on http://127.0.0.1:PORT (3000), the emulator on
 * EMULATOR_PORT (4010), the OpenID Connect provider on OIDC_PORT (4020); the banner is the last thing it
 * prints, and the request logs go to .data/demo/demo.log.
 */
const dataDir = path.resolve(".data/demo");
const logFile = path.join(dataDir, "demo.log");
const PORT_VARIABLES = ["PORT", "EMULATOR_PORT", "OIDC_PORT"] as const;
const port = (env: (typeof PORT_VARIABLES)[number], fallback: number) => ({ port: Number(process.env[env] ?? fallback), env });

/** What signing in as a demo provider user gives, for the banner. */
function ssoOutcome(groups: string[], emailVerified: boolean): string {
  if (!emailVerified) return "refused: email not verified";
  const role = roleForGroups(groups, { adminGroups: [demoOidcGroups.admin], supportGroups: [demoOidcGroups.support] });
  return role ? `${role} (groups: ${groups.join(", ")})` : `refused: in no console group (groups: ${groups.join(", ")})`;
}

function banner(stack: DemoStack): string {
  const { badSignatures, outage } = STORY_INCIDENTS;
  const relative = path.relative(process.cwd(), stack.logFile);
  const ports = [stack.consoleUrl, stack.emulator.url, stack.oidcIssuer].map((url, i) => `${PORT_VARIABLES[i]}=${new URL(url).port}`).join(" ");
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

  Request logs: ${relative}
  Ports: ${ports}   Ctrl+C stops the demo.
`;
}

const startedAt = Date.now();

async function main() {
  terminal.out("Starting the demo: database with a week of history, service emulator, single sign-on, console…\n");
  const stack = await startDemoStack({
    console: port("PORT", 3000),
    emulator: port("EMULATOR_PORT", 4010),
    oidc: port("OIDC_PORT", 4020),
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
    terminal.err(`\nThe console stopped (exit code ${code}). Its last lines, from ${stack.logFile}:\n${logTail(stack.logFile)}\n`);
    await stack.stop();
    process.exit(code || 1);
  });
  terminal.out(banner(stack));
}

main().catch((error: unknown) => {
  terminal.err(`\nThe demo could not start: ${errorMessage(error)}\n`);
  const tail = logTail(logFile, startedAt);
  if (tail) terminal.err(`\nThe last lines of ${logFile}:\n${tail}\n`);
  process.exit(1);
});
