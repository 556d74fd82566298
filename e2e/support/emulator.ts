import crypto from "node:crypto";

import { expect } from "@playwright/test";

import { loadSeedFile } from "../../emulator/seed";
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

/** The demo seed's Acme tenant (us), which e2e/support/seed.ts points at the console's receiver. */
export const ACME_TENANT = "3f6c2a1e-8b4d-4c7a-9e21-5d0f7a9b1c01";

/** Calls the emulator's control API and returns its JSON answer; throws on a non-2xx. */
export async function emulatorJson<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${e2eEnv.emulatorUrl}/_emulator/${path}`, {
    method,
    headers: body === undefined ? undefined : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The console receiver URL the e2e seed gave a tenant's webhook settings. */
export async function tenantWebhookUrl(tenantId = ACME_TENANT): Promise<string> {
  const state = await emulatorJson<{ tenants: Array<{ id: string; webhookUrl: string | null }> }>("GET", "state");
  const url = state.tenants.find((t) => t.id === tenantId)?.webhookUrl;
  if (!url) throw new Error(`The e2e seed did not point tenant ${tenantId}'s webhook at the console.`);
  return url;
}

/** Adds an authenticator that expires in one second of virtual time, then moves the clock past it. */
export async function expireAuthenticator(userId: string, extra: Record<string, string> = {}, tenantId = ACME_TENANT) {
  await emulatorJson("POST", `tenants/${tenantId}/users/${userId}/authenticators`, {
    userAuthenticatorId: `ua_${userId}`,
    verificationMethod: "PUSH",
    deviceName: "E2E Phone",
    devicePlatform: "IOS",
    lifetimeSeconds: 1,
    ...extra,
  });
  // Answers once the sweep ran and the due delivery was attempted.
  await emulatorJson("POST", "clock/advance", { seconds: 5 });
}

/**
 * A webhook's headers as the service sends them, signed with the tenant's first server key in the demo
 * seed: HMAC-SHA256 of "t.body", base64 without "=". `t` (unix seconds) is now unless given.
 */
export function signedWebhookHeaders(
  body: string,
  t = Math.floor(Date.now() / 1000),
  tenantId = ACME_TENANT,
): Record<string, string> {
  const key = loadSeedFile("emulator/seeds/demo.json").tenants.find((tenant) => tenant.id === tenantId)!
    .serverSecretKeys[0]!;
  const signature = crypto.createHmac("sha256", key).update(`${t}.${body}`).digest("base64").replace(/=+$/, "");
  return { "content-type": "application/json", "x-signature-v2": `t=${t},v2=${signature}` };
}
