import fs from "node:fs";

/**
 * Where the e2e servers listen and the credentials the seed creates. Each Playwright worker has a stack
 * of its own (console, emulator, OpenID Connect provider and database: e2e/global-setup.ts starts one per
 * worker), so specs in parallel never see each other's changes. Stack i listens on the base ports + 100·i.
 */
const basePorts = {
  console: Number(process.env.E2E_CONSOLE_PORT ?? 3217),
  emulator: Number(process.env.E2E_EMULATOR_PORT ?? 4317),
  oidc: Number(process.env.E2E_OIDC_PORT ?? 5317),
};

/**
 * Debian's chromium-headless-shell (package of that name), Chromium's old headless mode: no browser UI to draw, so
 * less CPU per test than /usr/bin/chromium, used when it is not installed (docs/performance.md, "The end-to-end
 * suite").
 */
const headlessShell = "/usr/lib/chromium/chromium-headless-shell";

export function e2eStack(index: number) {
  const consolePort = basePorts.console + 100 * index;
  const emulatorPort = basePorts.emulator + 100 * index;
  const oidcPort = basePorts.oidc + 100 * index;
  return {
    consolePort,
    emulatorPort,
    oidcPort,
    consoleUrl: `http://127.0.0.1:${consolePort}`,
    emulatorUrl: `http://127.0.0.1:${emulatorPort}`,
    /** The local OpenID Connect provider (tooling/oidc-provider.ts); its issuer. */
    oidcUrl: `http://127.0.0.1:${oidcPort}`,
    chromiumPath: process.env.CHROMIUM_PATH ?? (fs.existsSync(headlessShell) ? headlessShell : "/usr/bin/chromium"),
  };
}

/**
 * How many workers (and so stacks) a run has: E2E_WORKERS, 2 unless said. One worker leaves a two-core machine
 * partly idle, as a test waits on the browser, the console or a timer in turn (docs/performance.md, "The end-to-end
 * suite").
 */
export const e2eWorkers = Math.max(1, Number(process.env.E2E_WORKERS ?? 2) || 2);

/**
 * This process's stack: a worker's is its parallel index (Playwright sets TEST_PARALLEL_INDEX in the
 * worker before it loads the config); the seed scripts global-setup runs are told with E2E_STACK.
 */
export const e2eEnv = e2eStack(Number(process.env.TEST_PARALLEL_INDEX ?? process.env.E2E_STACK ?? 0));

export const e2eUsers = {
  admin: { email: "admin@e2e.test", password: "admin-password-e2e", name: "Ada Admin", role: "admin" },
  support: { email: "support@e2e.test", password: "support-password-e2e", name: "Sam Support", role: "support" },
  disabled: {
    email: "disabled@e2e.test",
    password: "disabled-password-e2e",
    name: "Dee Disabled",
    role: "support",
    disabled: true,
  },
  throttled: { email: "throttled@e2e.test", password: "throttled-password-e2e", name: "Tom Throttled", role: "admin" },
  // The team page's subjects (e2e/team-*.spec.ts), one per change so that no other spec sees it.
  teamRole: { email: "team-role@e2e.test", password: "team-role-password-e2e", name: "Rita Role", role: "support" },
  teamDisable: {
    email: "team-disable@e2e.test",
    password: "team-disable-password-e2e",
    name: "Dan Disable",
    role: "support",
  },
  teamRevoke: {
    email: "team-revoke@e2e.test",
    password: "team-revoke-password-e2e",
    name: "Rex Revoke",
    role: "support",
  },
  teamLocked: {
    email: "team-locked@e2e.test",
    password: "team-locked-password-e2e",
    name: "Lou Locked",
    role: "support",
  },
  teamTokens: {
    email: "team-tokens@e2e.test",
    password: "team-tokens-password-e2e",
    name: "Tia Tokens",
    role: "admin",
  },
} as const;
