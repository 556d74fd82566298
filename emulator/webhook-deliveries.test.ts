import { describe, expect, it } from "vitest";

import { advanceClock, control, signatureMatches, startReceiver, startTestEmulator, US_TENANT } from "./test-helpers";
import { addExpiring, attempts, useReceiver, webhookEmulator, webhookEmulatorPerFile } from "./webhook-test-helpers";

/**
 * When the emulator delivers its webhooks (./webhook-deliveries.ts): retries, delays, the sweep and the background
 * tick.
 */
webhookEmulatorPerFile();

describe("authenticator.expired delivery", () => {
  it("retries a failing receiver 3 times, ≥ 30 s of virtual time apart, with the same id and body", async () => {
    const hook = await useReceiver(500);
    await addExpiring({ verificationMethod: "PUSH" });
    await advanceClock(webhookEmulator(), 11);
    expect(hook.requests).toHaveLength(1);
    // Virtual time is real time plus the advances: a starved thread adds real seconds between two steps
    // (CI's PostgreSQL run at nice 19), so this check stays 10 s short of the retry; the gaps below are exact.
    await advanceClock(webhookEmulator(), 20);
    expect(hook.requests).toHaveLength(1);
    await advanceClock(webhookEmulator(), 10);
    expect(hook.requests).toHaveLength(2);
    for (const expected of [3, 4]) {
      await advanceClock(webhookEmulator(), 31);
      expect(hook.requests).toHaveLength(expected);
    }
    await advanceClock(webhookEmulator(), 86_400);
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
    await advanceClock(webhookEmulator(), 11);
    await advanceClock(webhookEmulator(), 30);
    await advanceClock(webhookEmulator(), 86_400);
    expect(hook.requests).toHaveLength(2);
    const recorded = await attempts();
    expect(recorded.map((a) => [a.attempt, a.statusCode, a.nextAttemptAt === null])).toEqual([
      [1, 500, false],
      [2, 204, true],
    ]);
    expect((await (await control(webhookEmulator(), "GET", "state")).json()) as object).toMatchObject({
      pendingDeliveries: 0,
    });
  });

  it("counts a 3xx as a failed attempt and retries it instead of following the redirect", async () => {
    const elsewhere = await startReceiver(200);
    try {
      const hook = await useReceiver(307, { headers: { Location: elsewhere.url } });
      await addExpiring({ verificationMethod: "PUSH" });
      await advanceClock(webhookEmulator(), 11);
      await advanceClock(webhookEmulator(), 30);
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

  it("records a timeout and a connection error as failed attempts and retries them", async () => {
    const hook = await useReceiver("hang");
    await addExpiring({ verificationMethod: "PUSH" });
    await advanceClock(webhookEmulator(), 11);
    expect(hook.requests).toHaveLength(1);
    await hook.close();
    await advanceClock(webhookEmulator(), 31);
    const recorded = await attempts();
    expect(recorded).toHaveLength(2);
    expect(recorded[0]?.error).toMatch(/timeout/);
    expect(recorded[1]?.error).toMatch(/ECONNREFUSED|fetch failed/);
    expect(recorded.every((a) => a.statusCode === null && a.nextAttemptAt !== null)).toBe(true);
  });

  it("delays delivery by the tenant's webhook delay and keeps the real expiry time", async () => {
    const hook = await useReceiver(200, { delaySeconds: 3600 });
    await addExpiring({ verificationMethod: "PUSH" });
    await advanceClock(webhookEmulator(), 11);
    expect(hook.requests).toHaveLength(0);
    expect((await (await control(webhookEmulator(), "GET", "state")).json()) as object).toMatchObject({
      pendingDeliveries: 1,
    });
    await advanceClock(webhookEmulator(), 3580);
    expect(hook.requests).toHaveLength(0);
    await advanceClock(webhookEmulator(), 20);
    expect(hook.requests).toHaveLength(1);
    const envelope = JSON.parse(hook.requests[0]?.body ?? "{}") as { data: { expiresAt: string } };
    const [attempt] = await attempts();
    expect(Date.parse(attempt?.sentAt ?? "") - Date.parse(envelope.data.expiresAt)).toBeGreaterThanOrEqual(3600_000);
  });

  it("sends nothing and records nothing for a tenant without a webhook URL", async () => {
    await addExpiring({ verificationMethod: "PUSH" });
    await advanceClock(webhookEmulator(), 11);
    expect(await attempts()).toEqual([]);
    expect((await (await control(webhookEmulator(), "GET", "state")).json()) as object).toMatchObject({
      pendingDeliveries: 0,
    });
  });

  it("hides the expired authenticator before the sweep and sends one event once swept", async () => {
    const hook = await useReceiver(200);
    await addExpiring({
      verificationMethod: "PUSH",
      expiresAt: new Date(Date.now() + 300).toISOString(),
      lifetimeSeconds: undefined,
    });
    await new Promise((resolve) => setTimeout(resolve, 400));
    const state = (await (await control(webhookEmulator(), "GET", "state")).json()) as {
      tenants: Array<{ id: string; authenticators: number }>;
    };
    expect(state.tenants.find((t) => t.id === US_TENANT.id)?.authenticators).toBe(4);
    expect(hook.requests).toHaveLength(0);
    await webhookEmulator().runDueWork();
    await webhookEmulator().runDueWork();
    expect(hook.requests).toHaveLength(1);
  });
});

describe("background tick", () => {
  it("expires authenticators and sends webhooks on its own in real time", async () => {
    const ticking = await startTestEmulator({ backgroundTick: true, tickIntervalMs: 50 });
    const hook = await startReceiver(200);
    try {
      await control(ticking, "PUT", `tenants/${US_TENANT.id}/webhook`, { url: hook.url });
      await control(ticking, "POST", `tenants/${US_TENANT.id}/users/user_tick/authenticators`, {
        verificationMethod: "PUSH",
        lifetimeSeconds: 0.2,
      });
      const deadline = Date.now() + 3000;
      while (hook.requests.length === 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
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

      expect(
        (await control(idle, "PUT", `tenants/${US_TENANT.id}/webhook`, { url: hook.url, delaySeconds: 0 })).status,
      ).toBe(200);
      idle.startBackgroundTick();
      await expect.poll(() => hook.requests.length, { timeout: 5_000 }).toBe(1);
      expect(JSON.parse(hook.requests[0]?.body ?? "{}")).toMatchObject({
        type: "authenticator.expired",
        data: { userAuthenticatorId: "ua_push_y" },
      });
    } finally {
      await hook.close();
      await idle.close();
    }
  });
});
