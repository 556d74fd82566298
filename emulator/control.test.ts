import { describe, expect, it } from "vitest";

import {
  advanceClock,
  basicAuth,
  control,
  emulatorPerFile,
  EU_TENANT,
  tokenFor,
  track,
  US_TENANT,
} from "./test-helpers";

const emulator = emulatorPerFile();

const trackUs = () => track(emulator, "us", US_TENANT.serverKey, "user_new");

describe("faults", () => {
  it("answers 500 with the error body for the next N requests of that region only", async () => {
    expect((await control(emulator, "POST", "faults", { region: "us", mode: "500", count: 2 })).status).toBe(200);
    expect((await track(emulator, "eu", EU_TENANT.serverKeys[0], "u1")).status).toBe(200);
    for (let i = 0; i < 2; i += 1) {
      const response = await trackUs();
      expect(response.status).toBe(500);
      expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(await response.json()).toMatchObject({ error: "internal_error", errorDescription: expect.any(String) });
    }
    expect((await trackUs()).status).toBe(200);
  });

  it("answers 429 with Retry-After for a virtual-time window", async () => {
    await control(emulator, "POST", "faults", { region: "us", mode: "429", seconds: 60 });
    for (let i = 0; i < 3; i += 1) {
      const response = await trackUs();
      expect(response.status).toBe(429);
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await response.json()).toMatchObject({ error: "too_many_requests" });
    }
    await advanceClock(emulator, 61);
    expect((await trackUs()).status).toBe(200);
  });

  it("hangs without answering until the client gives up", async () => {
    await control(emulator, "POST", "faults", { region: "us", mode: "hang", count: 1 });
    const started = Date.now();
    await expect(
      fetch(`${emulator.baseUrl("us")}/management/custom-data-points/dp_tier`, {
        headers: { Authorization: basicAuth(US_TENANT.managementKey) },
        signal: AbortSignal.timeout(300),
      }),
    ).rejects.toThrow(/timeout|aborted/i);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect((await trackUs()).status).toBe(200);
  });

  it("are cleared by DELETE /faults", async () => {
    await control(emulator, "POST", "faults", { region: "us", mode: "500", count: 5 });
    expect((await control(emulator, "DELETE", "faults")).status).toBe(200);
    expect((await trackUs()).status).toBe(200);
  });
});

describe("control API", () => {
  it("refuses requests made by a web page (Origin or Sec-Fetch-Site), so a site open in a browser cannot reset it", async () => {
    const fromPages: Array<Record<string, string>> = [
      { Origin: "http://evil.example" },
      { "Sec-Fetch-Site": "cross-site" },
      { "Sec-Fetch-Site": "same-site" },
    ];
    for (const headers of fromPages) {
      const response = await fetch(`${emulator.url}/_emulator/reset`, { method: "POST", headers });
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error: "forbidden" });
    }
    // A page typed into the address bar (Sec-Fetch-Site: none) and tools without the headers still work.
    expect((await fetch(`${emulator.url}/_emulator/state`, { headers: { "Sec-Fetch-Site": "none" } })).status).toBe(
      200,
    );
    expect((await control(emulator, "POST", "reset")).status).toBe(200);
  });

  it("summarises the state and the clock", async () => {
    const state = (await (await control(emulator, "GET", "state")).json()) as Record<string, unknown>;
    expect(state).toMatchObject({
      clock: { offsetSeconds: 0 },
      pendingDeliveries: 0,
      tenants: [
        { id: US_TENANT.id, name: "Test US", region: "us", webhookUrl: null, users: 2, authenticators: 4 },
        { id: EU_TENANT.id, name: "Test EU", region: "eu", webhookUrl: null, users: 0, authenticators: 0 },
      ],
    });
    await advanceClock(emulator, 90);
    const clock = (await (await control(emulator, "GET", "clock")).json()) as { now: string; offsetSeconds: number };
    expect(clock.offsetSeconds).toBe(90);
    expect(Math.abs(Date.parse(clock.now) - (Date.now() + 90_000))).toBeLessThan(2000);
  });

  it("rejects bad input with 400 and unknown tenants with 404", async () => {
    const cases: Array<[string, string, unknown]> = [
      ["POST", "clock/advance", { seconds: -1 }],
      ["POST", "faults", { region: "mars", mode: "500" }],
      ["PUT", `tenants/${US_TENANT.id}/webhook`, { url: "not a url" }],
      ["PUT", `tenants/${US_TENANT.id}/webhook`, { url: null, delaySeconds: 90_000 }],
      ["POST", `tenants/${US_TENANT.id}/users/u/authenticators`, { verificationMethod: "CARRIER_PIGEON" }],
    ];
    for (const [method, path, body] of cases) {
      const response = await control(emulator, method, path, body);
      expect(response.status, path).toBe(400);
      expect(await response.json()).toMatchObject({ error: "invalid_request" });
    }
    const malformed = await fetch(`${emulator.url}/_emulator/clock/advance`, { method: "POST", body: "{" });
    expect(malformed.status).toBe(400);
    const unknownTenant = await control(emulator, "PUT", "tenants/nope/webhook", { url: null });
    expect(unknownTenant.status).toBe(404);
    const badEscape = await control(emulator, "PUT", "tenants/%E0%A4%A/webhook", { url: null });
    expect(badEscape.status).toBe(404);
    expect(await badEscape.json()).toMatchObject({ error: "not_found" });
    expect((await control(emulator, "GET", "reset")).status).toBe(405);
  });

  it.each([
    ["an email on a PUSH authenticator", { verificationMethod: "PUSH", email: "jane@example.com" }, /^email: /],
    [
      "a phone number on an EMAIL_OTP authenticator",
      { verificationMethod: "EMAIL_OTP", phoneNumber: "+15551231234" },
      /^phoneNumber: /,
    ],
    [
      "a credentialName on a SECURITY_KEY",
      { verificationMethod: "SECURITY_KEY", credentialId: "c", credentialName: "Key" },
      /^credentialName: /,
    ],
  ])("refuses %s with 400 naming the field", async (_name, body, named) => {
    const response = await control(emulator, "POST", `tenants/${US_TENANT.id}/users/u/authenticators`, body);
    expect(response.status).toBe(400);
    const json = (await response.json()) as { error: string; errorDescription: string };
    expect(json.error).toBe("invalid_request");
    expect(json.errorDescription).toMatch(named);
  });

  it("reset restores the seed, the clock and the delivery log", async () => {
    await fetch(`${emulator.baseUrl("us")}/management/authenticator-configurations/email-otp`, {
      method: "DELETE",
      headers: { Authorization: basicAuth(US_TENANT.managementKey) },
    });
    await control(emulator, "POST", `tenants/${US_TENANT.id}/users/user_new/authenticators`, {
      verificationMethod: "PUSH",
    });
    await control(emulator, "PUT", `tenants/${US_TENANT.id}/webhook`, { url: "http://127.0.0.1:9/hook" });
    await control(emulator, "POST", `tenants/${US_TENANT.id}/users/user_new/authenticators`, {
      verificationMethod: "SMS",
      lifetimeSeconds: 5,
      phoneNumber: "+15550001111",
    });
    await advanceClock(emulator, 10);
    expect(((await (await control(emulator, "GET", "deliveries")).json()) as unknown[]).length).toBe(1);

    expect((await control(emulator, "POST", "reset")).status).toBe(200);
    const email = await fetch(`${emulator.baseUrl("us")}/management/authenticator-configurations/email-otp`, {
      headers: { Authorization: basicAuth(US_TENANT.managementKey) },
    });
    expect(email.status).toBe(200);
    expect(await (await control(emulator, "GET", "deliveries")).json()).toEqual([]);
    const state = (await (await control(emulator, "GET", "state")).json()) as {
      clock: { offsetSeconds: number };
      tenants: Array<{ webhookUrl: string | null; authenticators: number }>;
    };
    expect(state.clock.offsetSeconds).toBe(0);
    expect(state.tenants[0]).toMatchObject({ webhookUrl: null, authenticators: 4 });
    expect(await tokenFor(emulator, "user_new")).toBeTruthy();
  });
});
