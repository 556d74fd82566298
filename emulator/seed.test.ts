import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { VirtualClock } from "./clock";
import { maskEmail, maskPhoneNumber } from "./masking";
import { DATA_TYPES, loadSeedFile, MODEL_TYPES, parseSeed } from "./seed";
import { startEmulator } from "./server";
import { ServiceState } from "./state";
import { EU_TENANT, testSeed, US_TENANT } from "./test-helpers";

const demoSeedPath = path.join(import.meta.dirname, "seeds", "demo.json");
const dataPoint = { id: "dp", name: "x", dataType: "text", modelType: "user", description: "", isPublic: true };
const push = (userAuthenticatorId: string) => ({ userAuthenticatorId, verificationMethod: "PUSH" });
const withAuthenticators = (tenant: Record<string, unknown>, authenticators: unknown[]) => ({
  ...tenant,
  users: [{ userId: "u", authenticators }],
});

function writeTempSeed(content: unknown): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "emulator-seed-")), "seed.json");
  writeFileSync(file, JSON.stringify(content));
  return file;
}

describe("seed loading", () => {
  it("loads the demo seed with two regions, key rotation and every data point type", () => {
    const seed = loadSeedFile(demoSeedPath);
    expect(seed.tenants.map((t) => [t.name, t.region])).toEqual([
      ["Acme", "us"],
      ["Globex", "eu"],
    ]);
    expect(seed.tenants.find((t) => t.name === "Globex")?.serverSecretKeys).toHaveLength(2);
    const points = seed.tenants.flatMap((t) => t.customDataPoints);
    expect(new Set(points.map((p) => p.dataType))).toEqual(new Set(DATA_TYPES));
    expect(new Set(points.map((p) => p.modelType))).toEqual(new Set(MODEL_TYPES));
    expect(seed.tenants.every((t) => t.emailOtp !== null && t.webhookUrl === null)).toBe(true);
    const methods = new Set(
      seed.tenants.flatMap((t) => t.users.flatMap((u) => u.authenticators.map((a) => a.verificationMethod))),
    );
    expect(methods).toEqual(new Set(["PUSH", "PASSKEY", "EMAIL_OTP", "SMS"]));
  });

  it("names the path of a bad field and the file", () => {
    const bad = testSeed();
    const tenants = bad.tenants as Array<Record<string, unknown>>;
    tenants[0] = { ...tenants[0], region: "mars" };
    const file = writeTempSeed(bad);
    expect(() => loadSeedFile(file)).toThrow(/tenants\.0\.region/);
    expect(() => loadSeedFile(file)).toThrow(file);
  });

  it.each([
    [
      "a bad data type",
      (t: Record<string, unknown>) => ({
        ...t,
        customDataPoints: [
          { id: "x", name: "x", dataType: "date", modelType: "user", description: "", isPublic: true },
        ],
      }),
      /tenants\.0\.customDataPoints\.0\.dataType/,
    ],
    [
      "three server keys",
      (t: Record<string, unknown>) => ({ ...t, serverSecretKeys: ["k".repeat(20), "l".repeat(20), "m".repeat(20)] }),
      /tenants\.0\.serverSecretKeys/,
    ],
    [
      "both expiresAt and lifetimeSeconds",
      (t: Record<string, unknown>) => ({
        ...t,
        users: [
          {
            userId: "u",
            authenticators: [{ verificationMethod: "PUSH", expiresAt: "2030-01-01T00:00:00Z", lifetimeSeconds: 5 }],
          },
        ],
      }),
      /tenants\.0\.users\.0\.authenticators\.0\.lifetimeSeconds/,
    ],
    ["an unknown field", (t: Record<string, unknown>) => ({ ...t, webhookURL: "typo" }), /tenants\.0/],
    [
      "a bad email provider",
      (t: Record<string, unknown>) => ({ ...t, emailOtp: { emailProvider: "POSTMARK" } }),
      /tenants\.0\.emailOtp\.emailProvider/,
    ],
    [
      "a phone number on a PUSH authenticator",
      (t: Record<string, unknown>) =>
        withAuthenticators(t, [{ verificationMethod: "PUSH", phoneNumber: "+15551231234" }]),
      /tenants\.0\.users\.0\.authenticators\.0\.phoneNumber: only SMS or WHATSAPP/,
    ],
    [
      "an email on an SMS authenticator",
      (t: Record<string, unknown>) => withAuthenticators(t, [{ verificationMethod: "SMS", email: "a@example.com" }]),
      /tenants\.0\.users\.0\.authenticators\.0\.email: only EMAIL_OTP or EMAIL_MAGIC_LINK/,
    ],
    [
      "a passkey credential on an EMAIL_OTP authenticator",
      (t: Record<string, unknown>) => withAuthenticators(t, [{ verificationMethod: "EMAIL_OTP", aaguid: "x" }]),
      /tenants\.0\.users\.0\.authenticators\.0\.aaguid/,
    ],
    [
      "a duplicate userId",
      (t: Record<string, unknown>) => ({ ...t, users: [{ userId: "u" }, { userId: "u" }] }),
      /tenants\.0\.users\.1\.userId: duplicate userId/,
    ],
    [
      "a duplicate data point id",
      (t: Record<string, unknown>) => ({ ...t, customDataPoints: [dataPoint, dataPoint] }),
      /tenants\.0\.customDataPoints\.1\.id: duplicate custom data point id/,
    ],
    [
      "a duplicate userAuthenticatorId",
      (t: Record<string, unknown>) => ({
        ...t,
        users: [
          { userId: "u", authenticators: [push("ua_1")] },
          { userId: "v", authenticators: [push("ua_2"), push("ua_1")] },
        ],
      }),
      /tenants\.0\.users\.1\.authenticators\.1\.userAuthenticatorId: duplicate userAuthenticatorId/,
    ],
  ])("refuses %s", (_name, change, expected) => {
    const seed = testSeed();
    const tenants = seed.tenants as Array<Record<string, unknown>>;
    tenants[0] = change(tenants[0] ?? {});
    expect(() => parseSeed(seed)).toThrow(expected);
  });

  it("refuses a key shared by two tenants, naming the key field", () => {
    const seed = testSeed();
    const [first, second] = seed.tenants;
    if (!first || !second) throw new Error("fixture");
    second.managementKey = first.managementKey;
    expect(() => parseSeed(seed)).toThrow(/tenants\.1\.managementKey: key used twice/);
    second.managementKey = "test_mgmt_eu_unique_000000000000000";
    second.serverSecretKeys = [EU_TENANT.serverKeys[0], US_TENANT.serverKey];
    expect(() => parseSeed(seed)).toThrow(/tenants\.1\.serverSecretKeys\.1: key used twice/);
  });

  it("allows the same userId, data point id and userAuthenticatorId in two tenants, and a SECURITY_KEY's credential", () => {
    const seed = testSeed();
    const [first, second] = seed.tenants;
    if (!first || !second) throw new Error("fixture");
    second.customDataPoints = first.customDataPoints;
    second.users = [
      ...(first.users ?? []),
      { userId: "u_key", authenticators: [{ verificationMethod: "SECURITY_KEY", credentialId: "c", aaguid: "a" }] },
    ];
    expect(() => parseSeed(seed)).not.toThrow();
  });

  it("makes startEmulator reject an invalid seed", async () => {
    await expect(
      startEmulator({ port: 0, seed: { tenants: [{ id: "not-a-uuid" }] } as never, backgroundTick: false }),
    ).rejects.toThrow(/tenants\.0\.id/);
  });
});

describe("state expiry", () => {
  it("hides expired authenticators on read and hands each expiry out exactly once", () => {
    const clock = new VirtualClock();
    const seed = parseSeed(testSeed());
    const state = new ServiceState(seed, clock);
    const tenant = state.tenants[0];
    if (!tenant) throw new Error("fixture");
    state.addAuthenticator(tenant, "u", { verificationMethod: "PUSH", lifetimeSeconds: 30 });
    expect(state.currentAuthenticators(tenant, "u")).toHaveLength(1);
    clock.advance(30);
    expect(state.currentAuthenticators(tenant, "u")).toHaveLength(0);
    expect(state.removeExpiredAuthenticators()).toHaveLength(1);
    expect(state.removeExpiredAuthenticators()).toHaveLength(0);
  });

  it("keeps an expired, unswept EMAIL_OTP credential for the sweep when the email OTP configuration is deleted", () => {
    const clock = new VirtualClock();
    const state = new ServiceState(parseSeed(testSeed()), clock);
    const tenant = state.tenants[0];
    if (!tenant) throw new Error("fixture");
    state.addAuthenticator(tenant, "u", {
      userAuthenticatorId: "ua_gone",
      verificationMethod: "EMAIL_OTP",
      lifetimeSeconds: 30,
    });
    clock.advance(30);
    expect(state.deleteEmailOtpConfiguration(tenant)).toBe(true);
    // The seed's current EMAIL_OTP credential went with the configuration; the expired one is still owed its event.
    expect(state.currentAuthenticators(tenant, "user_enrolled").map((a) => a.verificationMethod)).not.toContain(
      "EMAIL_OTP",
    );
    expect(state.removeExpiredAuthenticators().map((e) => e.authenticator.userAuthenticatorId)).toEqual(["ua_gone"]);
  });
});

describe("masking", () => {
  it("masks e-mail addresses and phone numbers", () => {
    expect(maskEmail("jane@example.com")).toBe("j•••@example.com");
    expect(maskPhoneNumber("+15551231234")).toBe("+•••••••1234");
  });
});
