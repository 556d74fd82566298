import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "./server";
import {
  advanceClock,
  control,
  EU_TENANT,
  startReceiver,
  startTestEmulator,
  signatureMatches,
  US_TENANT,
  type Receiver,
  type ReceiverAnswer,
} from "./test-helpers";

interface Attempt {
  eventId: string;
  tenantId: string;
  attempt: number;
  sentAt: string;
  statusCode: number | null;
  error: string | null;
  nextAttemptAt: string | null;
}

let emulator: RunningEmulator;
let receiver: Receiver | undefined;
beforeAll(async () => {
  emulator = await startTestEmulator({ webhookTimeoutMs: 300 });
});
afterAll(() => emulator.close());
beforeEach(async () => {
  await control(emulator, "POST", "reset");
});
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

interface ReceiverOptions {
  tenantId?: string;
  delaySeconds?: number;
  headers?: Record<string, string>;
}

async function useReceiver(answers: ReceiverAnswer | ReceiverAnswer[], options: ReceiverOptions = {}): Promise<Receiver> {
  const { tenantId = US_TENANT.id, delaySeconds = 0, headers } = options;
  receiver = await startReceiver(answers, headers);
  const response = await control(emulator, "PUT", `tenants/${tenantId}/webhook`, { url: receiver.url, delaySeconds });
  expect(response.status).toBe(200);
  return receiver;
}

async function addExpiring(body: Record<string, unknown>, tenantId = US_TENANT.id, userId = "user_x"): Promise<void> {
  const response = await control(emulator, "POST", `tenants/${tenantId}/users/${userId}/authenticators`, {
    lifetimeSeconds: 10,
    ...body,
  });
  expect(response.status).toBe(201);
}

async function attempts(query = ""): Promise<Attempt[]> {
  return (await (await control(emulator, "GET", `deliveries${query}`)).json()) as Attempt[];
}

const ENVELOPE_KEYS = ["data", "id", "source", "tenantId", "time", "type", "version"];
const REQUIRED_DATA_KEYS = ["createdAt", "expiresAt", "userAuthenticatorId", "userId", "verificationMethod"];

describe("authenticator.expired delivery", () => {
  it("sends exactly one signed event with exactly the spec's fields to a 2xx receiver", async () => {
    const hook = await useReceiver(200);
    await addExpiring({
      userAuthenticatorId: "ua_push_x",
      verificationMethod: "PUSH",
      createdAt: "2025-05-01T10:00:00.000Z",
      deviceName: "Pixel",
      devicePlatform: "ANDROID",
    });
    await advanceClock(emulator, 11);
    expect(hook.requests).toHaveLength(1);
    const [request] = hook.requests;
    expect(request?.headers["content-type"]).toBe("application/json");
    const signature = String(request?.headers["x-signature-v2"]);
    expect(signature).toMatch(/^t=\d+,v2=[A-Za-z0-9+/]+$/);
    expect(signatureMatches(signature, request?.body ?? "", US_TENANT.serverKey)).toBe(true);
    expect(signatureMatches(signature, request?.body ?? "", "some-other-key-000000")).toBe(false);

    const envelope = JSON.parse(request?.body ?? "{}") as Record<string, unknown> & { data: Record<string, unknown> };
    expect(Object.keys(envelope).sort()).toEqual(ENVELOPE_KEYS);
    expect(envelope).toMatchObject({ version: 1, source: "https://authsignal.com", tenantId: US_TENANT.id, type: "authenticator.expired" });
    expect(envelope.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(envelope.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Object.keys(envelope.data).sort()).toEqual([...REQUIRED_DATA_KEYS, "deviceName", "devicePlatform"].sort());
    expect(envelope.data).toMatchObject({
      userId: "user_x",
      verificationMethod: "PUSH",
      createdAt: "2025-05-01T10:00:00.000Z",
      userAuthenticatorId: "ua_push_x",
      deviceName: "Pixel",
      devicePlatform: "ANDROID",
    });
    expect(Date.parse(String(envelope.data.expiresAt))).toBeLessThanOrEqual(Date.parse(String(envelope.time)));

    await advanceClock(emulator, 3600);
    expect(hook.requests).toHaveLength(1);
    const recorded = await attempts(`?tenantId=${US_TENANT.id}`);
    expect(recorded).toEqual([
      expect.objectContaining({ eventId: envelope.id, tenantId: US_TENANT.id, attempt: 1, statusCode: 200, error: null, nextAttemptAt: null }),
    ]);
    expect(hook.requests.some((r) => r.body.includes("authenticator.deleted"))).toBe(false);
  });

  it.each([
    ["PASSKEY", { credentialId: "c1", aaguid: "a1", credentialName: "YubiKey" }],
    ["EMAIL_OTP", { email: "jane@example.com" }],
    ["EMAIL_MAGIC_LINK", { email: "jane@example.com" }],
    ["SMS", { phoneNumber: "+15551231234" }],
    ["WHATSAPP", { phoneNumber: "+15551231234" }],
  ])("includes only the %s authenticator's optional fields, unmasked", async (method, extra) => {
    const hook = await useReceiver(204);
    await addExpiring({ verificationMethod: method, ...extra });
    await advanceClock(emulator, 11);
    expect(hook.requests).toHaveLength(1);
    const data = (JSON.parse(hook.requests[0]?.body ?? "{}") as { data: Record<string, unknown> }).data;
    expect(Object.keys(data).sort()).toEqual([...REQUIRED_DATA_KEYS, ...Object.keys(extra)].sort());
    expect(data).toMatchObject(extra);
  });

  it("leaves a SECURITY_KEY's stored credential out of the event (spec 6.1: passkeys only)", async () => {
    const hook = await useReceiver(204);
    await addExpiring({ verificationMethod: "SECURITY_KEY", credentialId: "c2", aaguid: "a2" });
    await advanceClock(emulator, 11);
    const data = (JSON.parse(hook.requests[0]?.body ?? "{}") as { data: Record<string, unknown> }).data;
    expect(Object.keys(data).sort()).toEqual(REQUIRED_DATA_KEYS);
  });

  it("retries a failing receiver 3 times, ≥ 30 s of virtual time apart, with the same id and body", async () => {
    const hook = await useReceiver(500);
    await addExpiring({ verificationMethod: "PUSH" });
    await advanceClock(emulator, 11);
    expect(hook.requests).toHaveLength(1);
    await advanceClock(emulator, 29);
    expect(hook.requests).toHaveLength(1);
    for (const expected of [2, 3, 4]) {
      await advanceClock(emulator, 31);
      expect(hook.requests).toHaveLength(expected);
    }
    await advanceClock(emulator, 86_400);
    expect(hook.requests).toHaveLength(4);

    expect(new Set(hook.requests.map((r) => r.body)).size).toBe(1);
    for (const request of hook.requests) {
      expect(signatureMatches(String(request.headers["x-signature-v2"]), request.body, US_TENANT.serverKey)).toBe(true);
    }
    const recorded = await attempts();
    expect(recorded.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
    expect(new Set(recorded.map((a) => a.eventId)).size).toBe(1);
    expect(recorded.every((a) => a.statusCode === 500)).toBe(true);
    expect(recorded[3]?.nextAttemptAt).toBeNull();
    for (let i = 1; i < recorded.length; i += 1) {
      const gap = Date.parse(recorded[i]?.sentAt ?? "") - Date.parse(recorded[i - 1]?.sentAt ?? "");
      expect(gap).toBeGreaterThanOrEqual(30_000);
      expect(recorded[i - 1]?.nextAttemptAt).not.toBeNull();
    }
    expect((await attempts(`?eventId=${recorded[0]?.eventId}`)).length).toBe(4);
    expect(await attempts("?eventId=00000000-0000-4000-8000-000000000000")).toEqual([]);
  });

  it("stops after the first 2xx: a receiver answering 500 then 204 gets exactly 2 attempts", async () => {
    const hook = await useReceiver([500, 204]);
    await addExpiring({ verificationMethod: "PUSH" });
    await advanceClock(emulator, 11);
    await advanceClock(emulator, 30);
    await advanceClock(emulator, 86_400);
    expect(hook.requests).toHaveLength(2);
    const recorded = await attempts();
    expect(recorded.map((a) => [a.attempt, a.statusCode, a.nextAttemptAt === null])).toEqual([
      [1, 500, false],
      [2, 204, true],
    ]);
    expect((await (await control(emulator, "GET", "state")).json()) as object).toMatchObject({ pendingDeliveries: 0 });
  });

  it("counts a 3xx as a failed attempt and retries it instead of following the redirect", async () => {
    const elsewhere = await startReceiver(200);
    try {
      const hook = await useReceiver(307, { headers: { Location: elsewhere.url } });
      await addExpiring({ verificationMethod: "PUSH" });
      await advanceClock(emulator, 11);
      await advanceClock(emulator, 30);
      expect(hook.requests).toHaveLength(2);
      expect(elsewhere.requests).toHaveLength(0);
      const recorded = await attempts();
      expect(recorded.map((a) => [a.statusCode, a.error, a.nextAttemptAt !== null])).toEqual([
        [307, null, true],
        [307, null, true],
      ]);
    } finally {
      await elsewhere.close();
    }
  });

  it("signs with wall-clock time, so t stays within 5 minutes of real time after a large clock advance", async () => {
    const hook = await useReceiver(200);
    await addExpiring({ verificationMethod: "PUSH", lifetimeSeconds: 30 * 86_400 });
    await advanceClock(emulator, 30 * 86_400 + 1);
    expect(hook.requests).toHaveLength(1);
    const t = Number(/^t=(\d+),/.exec(String(hook.requests[0]?.headers["x-signature-v2"]))?.[1]);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(300);
  });

  it("records a timeout and a connection error as failed attempts and retries them", async () => {
    const hook = await useReceiver("hang");
    await addExpiring({ verificationMethod: "PUSH" });
    await advanceClock(emulator, 11);
    expect(hook.requests).toHaveLength(1);
    await hook.close();
    await advanceClock(emulator, 31);
    const recorded = await attempts();
    expect(recorded).toHaveLength(2);
    expect(recorded[0]?.error).toMatch(/timeout/);
    expect(recorded[1]?.error).toMatch(/ECONNREFUSED|fetch failed/);
    expect(recorded.every((a) => a.statusCode === null && a.nextAttemptAt !== null)).toBe(true);
  });

  it("signs with every active server key while two are active", async () => {
    const hook = await useReceiver(200, { tenantId: EU_TENANT.id });
    await addExpiring({ verificationMethod: "PUSH" }, EU_TENANT.id);
    await advanceClock(emulator, 11);
    const request = hook.requests[0];
    const signature = String(request?.headers["x-signature-v2"]);
    expect(signature.split(",").filter((part) => part.startsWith("v2="))).toHaveLength(2);
    for (const key of EU_TENANT.serverKeys) {
      const onlyThisKey = signature.split(",").filter((part, index) => part.startsWith("t=") || index === 1 + EU_TENANT.serverKeys.indexOf(key));
      expect(signatureMatches(onlyThisKey.join(","), request?.body ?? "", key)).toBe(true);
    }
  });

  it("delays delivery by the tenant's webhook delay and keeps the real expiry time", async () => {
    const hook = await useReceiver(200, { delaySeconds: 3600 });
    await addExpiring({ verificationMethod: "PUSH" });
    await advanceClock(emulator, 11);
    expect(hook.requests).toHaveLength(0);
    expect((await (await control(emulator, "GET", "state")).json()) as object).toMatchObject({ pendingDeliveries: 1 });
    await advanceClock(emulator, 3580);
    expect(hook.requests).toHaveLength(0);
    await advanceClock(emulator, 20);
    expect(hook.requests).toHaveLength(1);
    const envelope = JSON.parse(hook.requests[0]?.body ?? "{}") as { data: { expiresAt: string } };
    const [attempt] = await attempts();
    expect(Date.parse(attempt?.sentAt ?? "") - Date.parse(envelope.data.expiresAt)).toBeGreaterThanOrEqual(3600_000);
  });

  it("sends nothing and records nothing for a tenant without a webhook URL", async () => {
    await addExpiring({ verificationMethod: "PUSH" });
    await advanceClock(emulator, 11);
    expect(await attempts()).toEqual([]);
    expect((await (await control(emulator, "GET", "state")).json()) as object).toMatchObject({ pendingDeliveries: 0 });
  });

  it("hides the expired authenticator before the sweep and sends one event once swept", async () => {
    const hook = await useReceiver(200);
    await addExpiring({ verificationMethod: "PUSH", expiresAt: new Date(Date.now() + 300).toISOString(), lifetimeSeconds: undefined });
    await new Promise((resolve) => setTimeout(resolve, 400));
    const state = (await (await control(emulator, "GET", "state")).json()) as { tenants: Array<{ id: string; authenticators: number }> };
    expect(state.tenants.find((t) => t.id === US_TENANT.id)?.authenticators).toBe(4);
    expect(hook.requests).toHaveLength(0);
    await emulator.runDueWork();
    await emulator.runDueWork();
    expect(hook.requests).toHaveLength(1);
  });
});

describe("background tick", () => {
  it("expires authenticators and sends webhooks on its own in real time", async () => {
    const ticking = await startTestEmulator({ backgroundTick: true, tickIntervalMs: 50 });
    const hook = await startReceiver(200);
    try {
      await control(ticking, "PUT", `tenants/${US_TENANT.id}/webhook`, { url: hook.url });
      await control(ticking, "POST", `tenants/${US_TENANT.id}/users/user_tick/authenticators`, { verificationMethod: "PUSH", lifetimeSeconds: 0.2 });
      const deadline = Date.now() + 3000;
      while (hook.requests.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(hook.requests).toHaveLength(1);
    } finally {
      await hook.close();
      await ticking.close();
    }
  });
});

describe("an emulator started without its background tick (npm run demo)", () => {
  it("sweeps nothing until the tick starts, then sends what expired meanwhile", async () => {
    const idle = await startTestEmulator({ tickIntervalMs: 10 });
    const hook = await startReceiver(200);
    try {
      const added = await control(idle, "POST", `tenants/${US_TENANT.id}/users/user_y/authenticators`, {
        userAuthenticatorId: "ua_push_y",
        verificationMethod: "PUSH",
        createdAt: "2025-05-01T10:00:00.000Z",
        lifetimeSeconds: 0.05,
      });
      expect(added.status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(hook.requests).toHaveLength(0);

      expect((await control(idle, "PUT", `tenants/${US_TENANT.id}/webhook`, { url: hook.url, delaySeconds: 0 })).status).toBe(200);
      idle.startBackgroundTick();
      await expect.poll(() => hook.requests.length, { timeout: 5_000 }).toBe(1);
      expect(JSON.parse(hook.requests[0]?.body ?? "{}")).toMatchObject({ type: "authenticator.expired", data: { userAuthenticatorId: "ua_push_y" } });
    } finally {
      await hook.close();
      await idle.close();
    }
  });
});
