/** Where the e2e servers listen and the credentials the seed creates. Fixed so every worker agrees. */
const consolePort = Number(process.env.E2E_CONSOLE_PORT ?? 3217);
const emulatorPort = Number(process.env.E2E_EMULATOR_PORT ?? 4317);

export const e2eEnv = {
  consolePort,
  emulatorPort,
  consoleUrl: `http://127.0.0.1:${consolePort}`,
  emulatorUrl: `http://127.0.0.1:${emulatorPort}`,
  chromiumPath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
};

export const e2eUsers = {
  admin: { email: "admin@e2e.test", password: "admin-password-e2e", name: "Ada Admin", role: "admin" },
  support: { email: "support@e2e.test", password: "support-password-e2e", name: "Sam Support", role: "support" },
  disabled: { email: "disabled@e2e.test", password: "disabled-password-e2e", name: "Dee Disabled", role: "support", disabled: true },
  throttled: { email: "throttled@e2e.test", password: "throttled-password-e2e", name: "Tom Throttled", role: "admin" },
} as const;
