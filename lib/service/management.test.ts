import net from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { loadSeedFile, startEmulator, type RunningEmulator } from "@/emulator/server";

import { deleteEmailOtpConfiguration, getCustomDataPoint, getEmailOtpConfiguration } from "./management";

const seed = loadSeedFile("emulator/seeds/demo.json");
const acme = seed.tenants.find((t) => t.name === "Acme")!;
const globex = seed.tenants.find((t) => t.name === "Globex")!;
const acmeCreds = { region: acme.region, managementKey: acme.managementKey };
// Short back-off, but a timeout that a loaded 2-core CI machine cannot trip by accident.
const fast = { retryDelayMs: 10, timeoutMs: 5_000 };

let emulator: RunningEmulator;

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function control(path: string, init: { method: string; body?: unknown }) {
  const response = await fetch(`${emulator.url}/_emulator/${path}`, {
    method: init.method,
    headers: { "Content-Type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  expect(response.ok).toBe(true);
}
const fault = (region: string, mode: string, count?: number) =>
  control("faults", { method: "POST", body: { region, mode, count } });

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seed, backgroundTick: false });
  // Set before the first env() read. AU answers JSON of another shape; CA is a closed port.
  process.env.SERVICE_BASE_URL_US = emulator.baseUrl("us");
  process.env.SERVICE_BASE_URL_EU = emulator.baseUrl("eu");
  process.env.SERVICE_BASE_URL_AU = `${emulator.url}/_emulator/state#`;
  process.env.SERVICE_BASE_URL_CA = `http://127.0.0.1:${await closedPort()}/ca/v1`;
});
afterAll(async () => {
  await emulator.close();
});

describe("getCustomDataPoint", () => {
  it("returns the data point, validated", async () => {
    const result = await getCustomDataPoint(acmeCreds, "dp_order_total", fast);
    expect(result).toMatchObject({
      kind: "ok",
      status: 200,
      data: { id: "dp_order_total", dataType: "number", modelType: "action", isPublic: false },
    });
  });

  it("says not_found for an unknown id, and encodes odd ids into the path", async () => {
    expect(await getCustomDataPoint(acmeCreds, "no_such_point", fast)).toMatchObject({
      kind: "not_found",
      status: 404,
    });
    expect(await getCustomDataPoint(acmeCreds, "../../_emulator/state", fast)).toMatchObject({ kind: "not_found" });
  });

  it("says unauthorized for a wrong key and for a key of another region", async () => {
    expect(
      await getCustomDataPoint({ region: "us", managementKey: "wrong_key_wrong_key" }, "dp_order_total", fast),
    ).toMatchObject({
      kind: "unauthorized",
      status: 401,
    });
    expect(
      await getCustomDataPoint({ region: "us", managementKey: globex.managementKey }, "dp_risk_score", fast),
    ).toMatchObject({
      kind: "unauthorized",
    });
  });

  it("retries a GET twice on 5xx and then succeeds", async () => {
    await fault("us", "500", 2);
    expect(await getCustomDataPoint(acmeCreds, "dp_loyalty_tier", fast)).toMatchObject({ kind: "ok" });
  });

  it("gives up after three attempts with unavailable", async () => {
    await fault("us", "500", 3);
    expect(await getCustomDataPoint(acmeCreds, "dp_loyalty_tier", fast)).toMatchObject({
      kind: "unavailable",
      status: 500,
      reason: "server_error",
    });
    // The fault was used up by exactly three attempts: the next call succeeds at once.
    expect(await getCustomDataPoint(acmeCreds, "dp_loyalty_tier", fast)).toMatchObject({ kind: "ok" });
  });

  it("reports rate limiting with Retry-After and does not retry it", async () => {
    await fault("us", "429", 1);
    expect(await getCustomDataPoint(acmeCreds, "dp_loyalty_tier", fast)).toMatchObject({
      kind: "rate_limited",
      status: 429,
      retryAfterSeconds: 1,
    });
  });

  it("times out a hanging request", async () => {
    await fault("us", "hang", 1);
    const started = Date.now();
    expect(await getCustomDataPoint(acmeCreds, "dp_loyalty_tier", { timeoutMs: 300, retryDelayMs: 10 })).toMatchObject({
      kind: "unavailable",
      status: null,
      reason: "timeout",
    });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("says unavailable on a network error after retrying, and the key is in no message", async () => {
    const result = await getCustomDataPoint({ region: "ca", managementKey: acme.managementKey }, "x", fast);
    expect(result).toMatchObject({ kind: "unavailable", status: null, reason: "network" });
    expect(JSON.stringify(result)).not.toContain(acme.managementKey);
  });

  it("says invalid_response when the body does not match the spec", async () => {
    // AU points at the emulator's state document: JSON, 200, but not a data point.
    const result = await getCustomDataPoint({ region: "au", managementKey: acme.managementKey }, "x", fast);
    expect(result).toMatchObject({ kind: "invalid_response", status: 200 });
  });
});

describe("email OTP configuration", () => {
  const globexCreds = { region: globex.region, managementKey: globex.managementKey };

  it("reads the configuration", async () => {
    expect(await getEmailOtpConfiguration(globexCreds, fast)).toMatchObject({
      kind: "ok",
      data: { emailProvider: "MAILGUN", isActive: true, verificationMethod: "EMAIL_OTP" },
    });
  });

  it("does not retry a DELETE that failed with 5xx, and reports unavailable", async () => {
    await fault("eu", "500", 1);
    expect(await deleteEmailOtpConfiguration(globexCreds, fast)).toMatchObject({ kind: "unavailable", status: 500 });
    // Had it been retried, the retry would have deleted it; it is still there.
    expect(await getEmailOtpConfiguration(globexCreds, fast)).toMatchObject({ kind: "ok" });
  });

  it("deletes once (200), then says not_found (404)", async () => {
    expect(await deleteEmailOtpConfiguration(globexCreds, fast)).toMatchObject({
      kind: "ok",
      status: 200,
      data: { success: true },
    });
    expect(await getEmailOtpConfiguration(globexCreds, fast)).toMatchObject({ kind: "not_found" });
    expect(await deleteEmailOtpConfiguration(globexCreds, fast)).toMatchObject({ kind: "not_found", status: 404 });
  });

  it("says unauthorized for a key the region refuses", async () => {
    expect(await deleteEmailOtpConfiguration({ region: "eu", managementKey: acme.managementKey }, fast)).toMatchObject({
      kind: "unauthorized",
    });
  });
});
