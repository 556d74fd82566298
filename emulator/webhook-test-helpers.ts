/**
 * Shared fixtures for the emulator's webhook tests (not a test file itself): one emulator per file, reset
 * before each test, with a 3 s webhook timeout; a receiver the US tenant's webhook points at.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";

import type { RunningEmulator } from "./server";
import {
  control,
  startReceiver,
  startTestEmulator,
  US_TENANT,
  type Receiver,
  type ReceiverAnswer,
} from "./test-helpers";

export interface Attempt {
  eventId: string;
  tenantId: string;
  attempt: number;
  sentAt: string;
  statusCode: number | null;
  error: string | null;
  nextAttemptAt: string | null;
}

let emulator: RunningEmulator | undefined;
let receiver: Receiver | undefined;

/**
 * Registers the file's emulator (started before its tests, reset before each) and closes each test's receiver after it.
 */
export function webhookEmulatorPerFile(): void {
  beforeAll(async () => {
    // The emulator and the receiver share the test's thread, which a busy machine can starve for longer
    // than a short timeout: a 204 answered within 300 ms once counted as timed out, and was sent again
    // (CI's PostgreSQL run at nice 19 beside e2e). Only the test of a hanging receiver waits for it all.
    emulator = await startTestEmulator({ webhookTimeoutMs: 3_000 });
  });
  afterAll(() => emulator?.close());
  beforeEach(async () => {
    await control(webhookEmulator(), "POST", "reset");
  });
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
  });
}

/** The file's emulator (inside a test). */
export function webhookEmulator(): RunningEmulator {
  if (!emulator) throw new Error("The emulator is not started yet (use it inside a test).");
  return emulator;
}

interface ReceiverOptions {
  tenantId?: string;
  delaySeconds?: number;
  headers?: Record<string, string>;
}

/** Starts the test's receiver and points the tenant's webhook (the US tenant's unless said) at it. */
export async function useReceiver(
  answers: ReceiverAnswer | ReceiverAnswer[],
  options: ReceiverOptions = {},
): Promise<Receiver> {
  const { tenantId = US_TENANT.id, delaySeconds = 0, headers } = options;
  receiver = await startReceiver(answers, headers);
  const response = await control(webhookEmulator(), "PUT", `tenants/${tenantId}/webhook`, {
    url: receiver.url,
    delaySeconds,
  });
  expect(response.status).toBe(200);
  return receiver;
}

/** Adds an authenticator that expires in 10 s of virtual time unless the body says otherwise. */
export async function addExpiring(
  body: Record<string, unknown>,
  tenantId = US_TENANT.id,
  userId = "user_x",
): Promise<void> {
  const response = await control(webhookEmulator(), "POST", `tenants/${tenantId}/users/${userId}/authenticators`, {
    lifetimeSeconds: 10,
    ...body,
  });
  expect(response.status).toBe(201);
}

/** The delivery attempts the emulator recorded. */
export async function attempts(query = ""): Promise<Attempt[]> {
  return (await (await control(webhookEmulator(), "GET", `deliveries${query}`)).json()) as Attempt[];
}
