import { expect } from "@playwright/test";
import { e2eEnv } from "./env";

/** Calls the emulator's control API (faults, reset, tenants' webhook settings) and expects a 2xx. */
export async function emulatorControl(path: string, method: string, body?: unknown): Promise<void> {
  const response = await fetch(`${e2eEnv.emulatorUrl}/_emulator/${path}`, {
    method,
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.ok).toBe(true);
}
