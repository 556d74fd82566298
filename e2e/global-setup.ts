import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { startOidcProvider, type RunningOidcProvider } from "../tooling/oidc-provider";
import { run, startConsoleServer, startProcess, stopProcess, waitForUrl } from "../tooling/processes";
import { e2eEnv, e2eStack, e2eWorkers } from "./support/env";
import { e2eOidc, e2eOidcUsers } from "./support/oidc";

/**
 * Starts one stack per Playwright worker (E2E_WORKERS): the emulator, a local OpenID Connect provider
 * (in this process, with its fault switch) and the production build of the console on a fresh embedded
 * database, seeded with the e2e users and connections. Returns the teardown.
 */
export default async function globalSetup() {
  if (!fs.existsSync(e2eEnv.chromiumPath)) {
    throw new Error(`Chromium not found at ${e2eEnv.chromiumPath}. Install it with: sudo apt-get install chromium`);
  }
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  if (!fs.existsSync(path.join(distDir, "BUILD_ID"))) {
    throw new Error(`No production build in ${distDir}: run \`npm run build\` first (npm run test:e2e does).`);
  }
  const stacks: Array<() => Promise<void>> = [];
  const teardown = async () => {
    await Promise.all(stacks.map((stop) => stop()));
  };
  try {
    // Side by side: a stack's start waits on its processes much of the time (docs/performance.md, "The
    // end-to-end suite").
    const started = await Promise.allSettled(Array.from({ length: e2eWorkers }, (_, index) => startStack(index)));
    for (const s of started) if (s.status === "fulfilled") stacks.push(s.value);
    for (const s of started) if (s.status === "rejected") throw s.reason;
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}

/** Starts stack `index` (ports from e2eStack) and returns its teardown. */
async function startStack(index: number): Promise<() => Promise<void>> {
  const stack = e2eStack(index);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "console-e2e-"));
  const oidcClientSecret = crypto.randomBytes(32).toString("base64url");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    E2E_STACK: String(index),
    NODE_ENV: "production",
    NEXTAUTH_URL: stack.consoleUrl,
    NEXTAUTH_SECRET: crypto.randomBytes(32).toString("base64"),
    CONSOLE_ENCRYPTION_KEY: crypto.randomBytes(32).toString("base64"),
    CONSOLE_DATA_DIR: dataDir,
    DATABASE_URL: "",
    SERVICE_BASE_URL_US: `${stack.emulatorUrl}/us/v1`,
    SERVICE_BASE_URL_EU: `${stack.emulatorUrl}/eu/v1`,
    SERVICE_BASE_URL_AU: `${stack.emulatorUrl}/au/v1`,
    SERVICE_BASE_URL_CA: `${stack.emulatorUrl}/ca/v1`,
    E2E_EMULATOR_URL: stack.emulatorUrl,
    // The hanging-service tests (e2e/streaming.spec.ts) wait for the console to give up: 3 s, not 10.
    SERVICE_TIMEOUT_MS: "3000",
    // The tenants' handlers in the forwarding tests (tooling/tenant-app.ts) listen on 127.0.0.1 over http.
    CONSOLE_FORWARD_ALLOWED_HOSTS: "127.0.0.1",
    // The alerts' evaluator at its shortest period, so the alerts spec and the tour see an alert open (and
    // resolve) within seconds rather than waiting up to a period each time.
    CONSOLE_ALERT_EVALUATE_SECONDS: "2",
    // And a short hold, so the tour (e2e/tour.spec.ts) sees an alert resolve within seconds of clearing.
    CONSOLE_ALERT_HOLD_SECONDS: "5",
    // As if behind one proxy that appends the caller's address to X-Forwarded-For.
    CONSOLE_TRUSTED_PROXY_HOPS: "1",
    CONSOLE_OIDC_ISSUER: stack.oidcUrl,
    CONSOLE_OIDC_CLIENT_ID: e2eOidc.clientId,
    CONSOLE_OIDC_CLIENT_SECRET: oidcClientSecret,
    CONSOLE_OIDC_NAME: e2eOidc.providerName,
    CONSOLE_OIDC_ADMIN_GROUPS: e2eOidc.adminGroup,
    CONSOLE_OIDC_SUPPORT_GROUPS: e2eOidc.supportGroup,
    CONSOLE_OIDC_ALLOWED_DOMAINS: e2eOidc.allowedDomain,
  };
  const bin = (name: string) => path.resolve("node_modules/.bin", name);

  const emulator = startProcess(
    "emulator",
    bin("tsx"),
    ["emulator/main.ts", "--port", String(stack.emulatorPort), "--seed", "emulator/seeds/demo.json"],
    env,
  );
  let consoleServer: ReturnType<typeof startProcess> | undefined;
  let oidcProvider: RunningOidcProvider | undefined;
  const teardown = async () => {
    await Promise.all([stopProcess(consoleServer), stopProcess(emulator)]);
    await oidcProvider?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // The provider starts in this process while the emulator starts in its own (the seed needs the emulator).
    const [provider, emulatorUp] = await Promise.allSettled([
      startOidcProvider({
        port: stack.oidcPort,
        clientId: e2eOidc.clientId,
        clientSecret: oidcClientSecret,
        redirectUri: `${stack.consoleUrl}/api/auth/callback/oidc`,
        users: Object.values(e2eOidcUsers),
        faults: true,
      }),
      waitForUrl(`${stack.emulatorUrl}/_emulator/clock`, 30_000, emulator),
    ]);
    if (provider.status === "fulfilled") oidcProvider = provider.value;
    for (const outcome of [provider, emulatorUp]) if (outcome.status === "rejected") throw outcome.reason;
    await run(bin("tsx"), ["--conditions=react-server", "e2e/support/seed.ts"], env);
    consoleServer = startConsoleServer("console", stack.consolePort, env);
    await waitForUrl(`${stack.consoleUrl}/api/health`, 60_000, consoleServer);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
