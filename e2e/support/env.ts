/** Where the e2e servers listen and the credentials the seed creates. Fixed so every worker agrees. */
const consolePort = Number(process.env.E2E_CONSOLE_PORT ?? 3217);
const emulatorPort = Number(process.env.E2E_EMULATOR_PORT ?? 4317);
const oidcPort = Number(process.env.E2E_OIDC_PORT ?? 5317);

export const e2eEnv = {
  consolePort,
  emulatorPort,
  oidcPort,
  consoleUrl: `http://127.0.0.1:${consolePort}`,
  emulatorUrl: `http://127.0.0.1:${emulatorPort}`,
  /** The local OpenID Connect provider (scripts/oidc-provider.ts); its issuer. */
  oidcUrl: `http://127.0.0.1:${oidcPort}`,
  chromiumPath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
};

export const e2eUsers = {
  admin: { email: "admin@e2e.test", password: "admin-password-e2e", name: "Ada Admin", role: "admin" },
  support: { email: "support@e2e.test", password: "support-password-e2e", name: "Sam Support", role: "support" },
  disabled: { email: "disabled@e2e.test", password: "disabled-password-e2e", name: "Dee Disabled", role: "support", disabled: true },
  throttled: { email: "throttled@e2e.test", password: "throttled-password-e2e", name: "Tom Throttled", role: "admin" },
  // The team page's subjects (e2e/team.spec.ts), one per change so that no other spec sees it.
  teamRole: { email: "team-role@e2e.test", password: "team-role-password-e2e", name: "Rita Role", role: "support" },
  teamDisable: { email: "team-disable@e2e.test", password: "team-disable-password-e2e", name: "Dan Disable", role: "support" },
  teamRevoke: { email: "team-revoke@e2e.test", password: "team-revoke-password-e2e", name: "Rex Revoke", role: "support" },
  teamLocked: { email: "team-locked@e2e.test", password: "team-locked-password-e2e", name: "Lou Locked", role: "support" },
} as const;
