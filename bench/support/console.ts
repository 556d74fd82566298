/**
 * The console under test for the HTTP parts of the bench: its production build (built when missing),
 * a scenario database and a started console that Ctrl-C also removes, and a signed-in bench user.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

import { createScenario, distDir, startConsole, type ConsoleServer, type Scenario } from "../reliability/server";
import { signIn, type Session } from "../reliability/session";
import { onCleanup } from "./cleanup";

/** Builds the console once when the build the bench would start is missing (a fresh clone). */
export function ensureBuild(): void {
  if (fs.existsSync(path.join(distDir, "BUILD_ID"))) return;
  console.log(`No production build in ${distDir}: running npm run build…`);
  execFileSync("npm", ["run", "build"], { stdio: "inherit", env: { ...process.env, NEXT_DIST_DIR: distDir } });
}

/** A scenario (empty database) whose removal is also registered for an interrupted run. */
export async function benchScenario(name: string): Promise<Scenario> {
  const scenario = await createScenario(`bench-${name}`);
  const unregister = onCleanup(scenario.dispose);
  return {
    ...scenario,
    dispose: async () => {
      unregister();
      await scenario.dispose();
    },
  };
}

/** A console on the scenario (with any further settings in `extraEnv`), stopped by Ctrl-C too. */
export async function benchConsole(scenario: Scenario, extraEnv: Record<string, string> = {}): Promise<ConsoleServer> {
  // The datasets span 90 days, the default retention: the console's purge (30 s after start, then
  // hourly) would delete the oldest loaded events while a part measures them (a 1M export on PGlite
  // outlasted it once and lost its last rows so). A year's retention keeps every loaded event.
  const server = await startConsole(scenario, { CONSOLE_WEBHOOK_RETENTION_DAYS: "365", ...extraEnv });
  const unregister = onCleanup(server.stop);
  return {
    ...server,
    stop: async () => {
      unregister();
      await server.stop();
    },
  };
}

/** Runs `work` with a console started on the scenario and stops it afterwards, whatever happens. */
export async function withConsole<T>(scenario: Scenario, work: (server: ConsoleServer) => Promise<T>): Promise<T> {
  const server = await benchConsole(scenario);
  try {
    return await work(server);
  } finally {
    await server.stop();
  }
}

/** An admin (sees every column unmasked, as the heaviest view of the log). */
export const benchUser = {
  email: "bench@bench.test",
  password: "bench-admin-password-1",
  name: "Bench Admin",
  role: "admin",
} as const;

/** Seeds the bench user; call inside withDatabase (createUser writes to the installed database). */
export async function seedBenchUser(): Promise<void> {
  const { createUser } = await import("@/lib/auth/users");
  await createUser({ ...benchUser });
}

export const signInBenchUser = (server: ConsoleServer): Promise<Session> => signIn(server.url, benchUser);
