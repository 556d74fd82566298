/** Shared fixtures for the emulator's contract tests (not a test file itself). */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, beforeEach } from "vitest";

import { startEmulator, type Region, type RunningEmulator, type Seed, type StartEmulatorOptions } from "./server";

export const US_TENANT = {
  id: "0b5d8a2e-4f1c-4d3a-9b7e-1a2b3c4d5e01",
  managementKey: "test_mgmt_us_000000000000000000000001",
  serverKey: "test_srv_us_0000000000000000000000001",
};
export const EU_TENANT = {
  id: "7c1e9f4a-2b3d-4e5f-8a6b-9c0d1e2f3a02",
  managementKey: "test_mgmt_eu_000000000000000000000002",
  serverKeys: ["test_srv_eu_current_00000000000000002", "test_srv_eu_previous_0000000000000002"] as const,
};

export function testSeed(): Seed {
  return {
    tenants: [
      {
        id: US_TENANT.id,
        name: "Test US",
        region: "us",
        managementKey: US_TENANT.managementKey,
        serverSecretKeys: [US_TENANT.serverKey],
        emailOtp: { emailProvider: "SENDGRID", isActive: true },
        customDataPoints: [
          {
            id: "dp_tier",
            name: "Tier",
            dataType: "text",
            modelType: "user",
            description: "Loyalty tier",
            isPublic: true,
          },
        ],
        users: [
          {
            userId: "user_enrolled",
            authenticators: [
              {
                userAuthenticatorId: "ua_push",
                verificationMethod: "PUSH",
                createdAt: "2025-01-01T00:00:00.000Z",
                deviceName: "Test iPhone",
                devicePlatform: "IOS",
              },
              {
                userAuthenticatorId: "ua_email",
                verificationMethod: "EMAIL_OTP",
                createdAt: "2025-01-02T00:00:00.000Z",
                email: "jane@example.com",
              },
              {
                userAuthenticatorId: "ua_sms",
                verificationMethod: "SMS",
                createdAt: "2025-01-03T00:00:00.000Z",
                phoneNumber: "+15551231234",
              },
              {
                userAuthenticatorId: "ua_passkey",
                verificationMethod: "PASSKEY",
                createdAt: "2025-01-04T00:00:00.000Z",
                credentialId: "cred-1",
                aaguid: "fbfc3007-154e-4ecc-8c0b-6e020557d7bd",
                credentialName: "iCloud Keychain",
              },
            ],
          },
          { userId: "user_new", authenticators: [] },
        ],
      },
      {
        id: EU_TENANT.id,
        name: "Test EU",
        region: "eu",
        managementKey: EU_TENANT.managementKey,
        serverSecretKeys: [...EU_TENANT.serverKeys],
      },
    ],
  };
}

export function startTestEmulator(options: Partial<StartEmulatorOptions> = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, seed: testSeed(), backgroundTick: false, ...options });
}

/**
 * One emulator for the whole test file, reset to the seed before each test. The handle forwards to
 * the running emulator, so it can be declared at the top of a file before beforeAll has run.
 */
export function emulatorPerFile(): RunningEmulator {
  let running: RunningEmulator | undefined;
  const current = (): RunningEmulator => {
    if (!running) throw new Error("The emulator is not started yet (use it inside a test).");
    return running;
  };
  const handle: RunningEmulator = {
    get url() {
      return current().url;
    },
    baseUrl: (region) => current().baseUrl(region),
    runDueWork: () => current().runDueWork(),
    startBackgroundTick: () => current().startBackgroundTick(),
    startStory: (options) => current().startStory(options),
    close: () => current().close(),
  };
  beforeAll(async () => {
    running = await startTestEmulator();
  });
  afterAll(() => running?.close());
  beforeEach(async () => {
    await control(handle, "POST", "reset");
  });
  return handle;
}

export function basicAuth(username: string): string {
  return `Basic ${Buffer.from(`${username}:`).toString("base64")}`;
}

export async function control(
  emulator: RunningEmulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  return fetch(`${emulator.url}/_emulator/${path}`, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

export async function advanceClock(emulator: RunningEmulator, seconds: number): Promise<void> {
  const response = await control(emulator, "POST", "clock/advance", { seconds });
  if (response.status !== 200) throw new Error(`advance failed: ${response.status}`);
}

export async function track(
  emulator: RunningEmulator,
  region: Region,
  serverKey: string,
  userId: string,
  body?: unknown,
  action = "signIn",
): Promise<Response> {
  return fetch(`${emulator.baseUrl(region)}/users/${userId}/actions/${action}`, {
    method: "POST",
    headers: { Authorization: basicAuth(serverKey), "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

export async function tokenFor(emulator: RunningEmulator, userId: string, body?: unknown): Promise<string> {
  const response = await track(emulator, "us", US_TENANT.serverKey, userId, body);
  const json = (await response.json()) as { token: string };
  return json.token;
}

export function listAuthenticators(
  emulator: RunningEmulator,
  token: string,
  region: Region = "us",
  accept = "application/json",
): Promise<Response> {
  return fetch(`${emulator.baseUrl(region)}/client/user-authenticators`, {
    headers: { Authorization: `Bearer ${token}`, Accept: accept },
  });
}

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

export type ReceiverAnswer = number | "hang";

/**
 * A webhook endpoint on 127.0.0.1. The n-th request gets the n-th answer (the last one repeats): that
 * status with `headers`, or no answer at all ("hang").
 */
export async function startReceiver(
  answers: ReceiverAnswer | ReceiverAnswer[] = 200,
  headers: Record<string, string> = {},
): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const answerList = [answers].flat();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const answer = answerList[Math.min(requests.length, answerList.length) - 1] ?? 200;
      if (answer !== "hang") res.writeHead(answer, headers).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The SERVICE-FACTS verification, written independently of the emulator's signing code. */
export function signatureMatches(header: string, rawBody: string, secretKey: string): boolean {
  const parts = header.split(",").map((part) => part.split("=", 2) as [string, string]);
  const timestamp = parts.find(([name]) => name === "t")?.[1];
  if (!timestamp) return false;
  const expected = createHmac("sha256", secretKey)
    .update(`${timestamp}.${rawBody}`)
    .digest("base64")
    .replace(/=+$/, "");
  return parts
    .filter(([name]) => name === "v2")
    .some(
      ([, value]) => value.length === expected.length && timingSafeEqual(Buffer.from(value), Buffer.from(expected)),
    );
}
