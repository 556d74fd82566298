import { describe, expect, it } from "vitest";

import { advanceClock, EU_TENANT, signatureMatches, US_TENANT } from "./test-helpers";
import { addExpiring, attempts, useReceiver, webhookEmulator, webhookEmulatorPerFile } from "./webhook-test-helpers";

/** The authenticator.expired event the emulator sends (./webhook-event.ts): its fields, its signature. */
webhookEmulatorPerFile();

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
    await advanceClock(webhookEmulator(), 11);
    expect(hook.requests).toHaveLength(1);
    const [request] = hook.requests;
    expect(request?.headers["content-type"]).toBe("application/json");
    const signature = String(request?.headers["x-signature-v2"]);
    expect(signature).toMatch(/^t=\d+,v2=[A-Za-z0-9+/]+$/);
    expect(signatureMatches(signature, request?.body ?? "", US_TENANT.serverKey)).toBe(true);
    expect(signatureMatches(signature, request?.body ?? "", "some-other-key-000000")).toBe(false);

    const envelope = JSON.parse(request?.body ?? "{}") as Record<string, unknown> & { data: Record<string, unknown> };
    expect(Object.keys(envelope).sort()).toEqual(ENVELOPE_KEYS);
    expect(envelope).toMatchObject({
      version: 1,
      source: "https://authsignal.com",
      tenantId: US_TENANT.id,
      type: "authenticator.expired",
    });
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

    await advanceClock(webhookEmulator(), 3600);
    expect(hook.requests).toHaveLength(1);
    const recorded = await attempts(`?tenantId=${US_TENANT.id}`);
    expect(recorded).toEqual([
      expect.objectContaining({
        eventId: envelope.id,
        tenantId: US_TENANT.id,
        attempt: 1,
        statusCode: 200,
        error: null,
        nextAttemptAt: null,
      }),
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
    await advanceClock(webhookEmulator(), 11);
    expect(hook.requests).toHaveLength(1);
    const data = (JSON.parse(hook.requests[0]?.body ?? "{}") as { data: Record<string, unknown> }).data;
    expect(Object.keys(data).sort()).toEqual([...REQUIRED_DATA_KEYS, ...Object.keys(extra)].sort());
    expect(data).toMatchObject(extra);
  });

  it("leaves a SECURITY_KEY's stored credential out of the event (spec 6.1: passkeys only)", async () => {
    const hook = await useReceiver(204);
    await addExpiring({ verificationMethod: "SECURITY_KEY", credentialId: "c2", aaguid: "a2" });
    await advanceClock(webhookEmulator(), 11);
    const data = (JSON.parse(hook.requests[0]?.body ?? "{}") as { data: Record<string, unknown> }).data;
    expect(Object.keys(data).sort()).toEqual(REQUIRED_DATA_KEYS);
  });

  it("signs with wall-clock time, so t stays within 5 minutes of real time after a large clock advance", async () => {
    const hook = await useReceiver(200);
    await addExpiring({ verificationMethod: "PUSH", lifetimeSeconds: 30 * 86_400 });
    await advanceClock(webhookEmulator(), 30 * 86_400 + 1);
    expect(hook.requests).toHaveLength(1);
    const t = Number(/^t=(\d+),/.exec(String(hook.requests[0]?.headers["x-signature-v2"]))?.[1]);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(300);
  });

  it("signs with every active server key while two are active", async () => {
    const hook = await useReceiver(200, { tenantId: EU_TENANT.id });
    await addExpiring({ verificationMethod: "PUSH" }, EU_TENANT.id);
    await advanceClock(webhookEmulator(), 11);
    const request = hook.requests[0];
    const signature = String(request?.headers["x-signature-v2"]);
    expect(signature.split(",").filter((part) => part.startsWith("v2="))).toHaveLength(2);
    for (const key of EU_TENANT.serverKeys) {
      const onlyThisKey = signature
        .split(",")
        .filter((part, index) => part.startsWith("t=") || index === 1 + EU_TENANT.serverKeys.indexOf(key));
      expect(signatureMatches(onlyThisKey.join(","), request?.body ?? "", key)).toBe(true);
    }
  });
});
