import { decodeJwt } from "jose";
import { describe, expect, it, vi } from "vitest";

import {
  advanceClock,
  basicAuth,
  control,
  emulatorPerFile,
  EU_TENANT,
  listAuthenticators,
  tokenFor,
  track,
  US_TENANT,
} from "./test-helpers";

const emulator = emulatorPerFile();

function scopesOf(token: string): string[] {
  return String(decodeJwt(token).scope).split(" ").sort();
}

describe("POST /users/{userId}/actions/{action}", () => {
  it("returns ALLOW with a 10-minute HS256 token for the user and action", async () => {
    const response = await track(emulator, "us", US_TENANT.serverKey, "user_enrolled", {
      redirectUrl: "https://x.test",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ state: "ALLOW", isEnrolled: true });
    expect(body.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((body.enrolledVerificationMethods as string[]).sort()).toEqual(["EMAIL_OTP", "PASSKEY", "PUSH", "SMS"]);
    expect(body.allowedVerificationMethods).toContain("EMAIL_OTP");
    const claims = decodeJwt(String(body.token));
    expect(claims).toMatchObject({ tenantId: US_TENANT.id, sub: "user_enrolled", action: "signIn" });
    // Whole-second iat rounded down and exp rounded up around the exact expiry (auth.ts).
    expect(Number(claims.exp) - Number(claims.iat)).toBeGreaterThanOrEqual(600);
    expect(Number(claims.exp) - Number(claims.iat)).toBeLessThanOrEqual(601);
    expect(Math.abs(Number(claims.iat) - Date.now() / 1000)).toBeLessThan(5);
    expect(Math.abs(Number(claims.expiresAtMs) - (Date.now() + 600_000))).toBeLessThan(5000);
  });

  it("accepts no body and reports a new user as not enrolled", async () => {
    const body = (await (await track(emulator, "us", US_TENANT.serverKey, "somebody")).json()) as Record<
      string,
      unknown
    >;
    expect(body).toMatchObject({ isEnrolled: false, enrolledVerificationMethods: [] });
  });

  it("rejects a bad action code and malformed JSON with 400 invalid_request", async () => {
    const badAction = await track(emulator, "us", US_TENANT.serverKey, "user_new", undefined, "sign.in");
    expect(badAction.status).toBe(400);
    expect(await badAction.json()).toMatchObject({ error: "invalid_request" });
    const tooLong = await track(emulator, "us", US_TENANT.serverKey, "user_new", undefined, "a".repeat(65));
    expect(tooLong.status).toBe(400);
    const malformed = await fetch(`${emulator.baseUrl("us")}/users/user_new/actions/signIn`, {
      method: "POST",
      headers: { Authorization: basicAuth(US_TENANT.serverKey), "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: "invalid_request" });
  });

  it.each([
    ["a management key", "us", US_TENANT.managementKey],
    ["another region's server key", "us", EU_TENANT.serverKeys[0]],
    ["a key in the wrong region", "eu", US_TENANT.serverKey],
  ] as const)("is 401 for %s", async (_name, region, key) => {
    const response = await track(emulator, region, key, "user_new");
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: "unauthorized" });
  });

  it.each([
    ["an unknown scope", "read:authenticators delete:everything", /delete:everything/],
    ["a scope that is not a string", 5, /scope/],
  ])("rejects %s with 400 invalid_request naming it", async (_name, scope, named) => {
    const response = await track(emulator, "us", US_TENANT.serverKey, "user_enrolled", { scope });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; errorDescription: string };
    expect(body.error).toBe("invalid_request");
    expect(body.errorDescription).toMatch(named);
  });

  it("accepts every documented scope", async () => {
    const scope = "read:authenticators add:authenticators update:authenticators remove:authenticators";
    expect(scopesOf(await tokenFor(emulator, "user_enrolled", { scope }))).toEqual(scope.split(" ").sort());
  });

  it("accepts either server key while two are active", async () => {
    for (const key of EU_TENANT.serverKeys) expect((await track(emulator, "eu", key, "u1")).status).toBe(200);
  });
});

describe("scopes (spec 5.2.4)", () => {
  it("grants read by default and no add to a user who already has an authenticator", async () => {
    expect(scopesOf(await tokenFor(emulator, "user_enrolled"))).toEqual(["read:authenticators"]);
  });

  it("grants add to an enrolled user only when requested", async () => {
    const token = await tokenFor(emulator, "user_enrolled", { scope: "add:authenticators" });
    expect(scopesOf(token)).toEqual(["add:authenticators", "read:authenticators"]);
  });

  it("grants add implicitly to a user with no authenticator", async () => {
    expect(scopesOf(await tokenFor(emulator, "user_new"))).toEqual(["add:authenticators", "read:authenticators"]);
  });

  it("treats a user whose only authenticator has expired as having none", async () => {
    await control(emulator, "POST", `tenants/${US_TENANT.id}/users/user_short/authenticators`, {
      verificationMethod: "PUSH",
      lifetimeSeconds: 10,
    });
    expect(scopesOf(await tokenFor(emulator, "user_short"))).toEqual(["read:authenticators"]);
    await advanceClock(emulator, 11);
    expect(scopesOf(await tokenFor(emulator, "user_short"))).toEqual(["add:authenticators", "read:authenticators"]);
  });
});

describe("GET /client/user-authenticators", () => {
  it("lists the user's authenticators with derived types, masked contacts and passkey details", async () => {
    const response = await listAuthenticators(emulator, await tokenFor(emulator, "user_enrolled"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const byId = Object.fromEntries(
      ((await response.json()) as Array<{ userAuthenticatorId: string }>).map((a) => [a.userAuthenticatorId, a]),
    );
    expect(byId.ua_push).toEqual({
      userAuthenticatorId: "ua_push",
      authenticatorType: "PUSH",
      verificationMethod: "PUSH",
      createdAt: "2025-01-01T00:00:00.000Z",
      deviceName: "Test iPhone",
      devicePlatform: "IOS",
    });
    expect(byId.ua_email).toMatchObject({ authenticatorType: "OOB", email: "j•••@example.com" });
    expect(byId.ua_sms).toMatchObject({ authenticatorType: "OOB", phoneNumber: "+•••••••1234" });
    expect(byId.ua_passkey).toMatchObject({
      authenticatorType: "PASSKEY",
      webauthnCredential: {
        credentialId: "cred-1",
        name: "iCloud Keychain",
        aaguid: "fbfc3007-154e-4ecc-8c0b-6e020557d7bd",
      },
    });
  });

  it("gives a SECURITY_KEY with a credentialId its webauthnCredential, and one without none", async () => {
    const add = (body: Record<string, unknown>) =>
      control(emulator, "POST", `tenants/${US_TENANT.id}/users/user_keys/authenticators`, {
        verificationMethod: "SECURITY_KEY",
        ...body,
      });
    expect((await add({ userAuthenticatorId: "ua_key", credentialId: "cred-key", aaguid: "aaguid-key" })).status).toBe(
      201,
    );
    expect((await add({ userAuthenticatorId: "ua_key_bare" })).status).toBe(201);
    const list = (await (await listAuthenticators(emulator, await tokenFor(emulator, "user_keys"))).json()) as Array<
      Record<string, unknown>
    >;
    expect(list).toEqual([
      expect.objectContaining({
        userAuthenticatorId: "ua_key",
        authenticatorType: "SECURITY_KEY",
        webauthnCredential: { credentialId: "cred-key", aaguid: "aaguid-key" },
      }),
      expect.not.objectContaining({ webauthnCredential: expect.anything() }),
    ]);
  });

  it("accepts */* and answers 406 when Accept excludes JSON", async () => {
    const token = await tokenFor(emulator, "user_enrolled");
    expect((await listAuthenticators(emulator, token, "us", "*/*")).status).toBe(200);
    const refused = await listAuthenticators(emulator, token, "us", "text/html");
    expect(refused.status).toBe(406);
    expect(await refused.json()).toMatchObject({ error: "not_acceptable" });
  });

  it("is 401 unauthorized with a Bearer challenge without a token, with a forged one, or in another region", async () => {
    const token = await tokenFor(emulator, "user_enrolled");
    const forged = `${token.slice(0, -4)}AAAA`;
    const missing = await fetch(`${emulator.baseUrl("us")}/client/user-authenticators`, {
      headers: { Accept: "application/json" },
    });
    for (const response of [
      missing,
      await listAuthenticators(emulator, forged),
      await listAuthenticators(emulator, token, "eu"),
    ]) {
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="authsignal"');
      expect(await response.json()).toMatchObject({ error: "unauthorized" });
    }
  });

  it("honours the token until 10 minutes of virtual time, then answers expired_token", async () => {
    const token = await tokenFor(emulator, "user_enrolled");
    await advanceClock(emulator, 599);
    expect((await listAuthenticators(emulator, token)).status).toBe(200);
    await advanceClock(emulator, 1);
    const expired = await listAuthenticators(emulator, token);
    expect(expired.status).toBe(401);
    expect(expired.headers.get("www-authenticate")).toBe('Bearer realm="authsignal"');
    expect(await expired.json()).toEqual({ error: "expired_token", errorDescription: expect.any(String) });
  });

  it("hides an authenticator the moment the clock passes its expiry, before any sweep", async () => {
    // Only Date is faked (the emulator runs in this process): a starved machine cannot let the expiry pass
    // before the first read, and the background tick is off in tests, so nothing sweeps it in between.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    try {
      const expiresAt = new Date(Date.now() + 600).toISOString();
      const added = await control(emulator, "POST", `tenants/${US_TENANT.id}/users/user_enrolled/authenticators`, {
        userAuthenticatorId: "ua_soon",
        verificationMethod: "PUSH",
        expiresAt,
      });
      expect(added.status).toBe(201);
      expect(await added.json()).toMatchObject({ userAuthenticatorId: "ua_soon", expiresAt });
      const token = await tokenFor(emulator, "user_enrolled");
      const ids = async () =>
        ((await (await listAuthenticators(emulator, token)).json()) as Array<{ userAuthenticatorId: string }>).map(
          (a) => a.userAuthenticatorId,
        );
      vi.setSystemTime(Date.now() + 599);
      expect(await ids()).toContain("ua_soon");
      vi.setSystemTime(Date.now() + 2);
      expect(await ids()).not.toContain("ua_soon");
    } finally {
      vi.useRealTimers();
    }
  });
});
