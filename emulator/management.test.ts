import { describe, expect, it } from "vitest";

import { basicAuth, emulatorPerFile, EU_TENANT, listAuthenticators, tokenFor, US_TENANT } from "./test-helpers";

const emulator = emulatorPerFile();

function management(path: string, init: RequestInit & { key?: string | null } = {}): Promise<Response> {
  const { key = US_TENANT.managementKey, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (key !== null) headers.set("Authorization", basicAuth(key));
  return fetch(`${emulator.baseUrl("us")}/management${path}`, { ...rest, headers });
}

async function expectError(response: Response, status: number, error: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  const body = (await response.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["error", "errorDescription"]);
  expect(body.error).toBe(error);
  expect(typeof body.errorDescription).toBe("string");
}

describe("GET /authenticator-configurations/email-otp", () => {
  it("returns the configuration without provider secrets", async () => {
    const response = await management("/authenticator-configurations/email-otp");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      isActive: true,
      verificationMethod: "EMAIL_OTP",
      emailProvider: "SENDGRID",
      numberOfAttemptsAllowed: 5,
      otpLifetimeInSeconds: 600,
    });
    expect(body.authenticatorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(body).some((key) => /secret|password|apiKey/i.test(key))).toBe(false);
  });

  it("is 401 for a wrong key", async () => {
    const response = await management("/authenticator-configurations/email-otp", {
      key: "test_mgmt_us_wrong_wrong_wrong_wrong_1",
    });
    await expectError(response, 401, "unauthorized");
    expect(response.headers.get("www-authenticate")).toBe('Basic realm="authsignal"');
  });

  it("is 404 for a tenant without one", async () => {
    const response = await fetch(`${emulator.baseUrl("eu")}/management/authenticator-configurations/email-otp`, {
      headers: { Authorization: basicAuth(EU_TENANT.managementKey) },
    });
    await expectError(response, 404, "not_found");
  });
});

describe("DELETE /authenticator-configurations/email-otp", () => {
  it("deletes the configuration and its stored EMAIL_OTP credentials", async () => {
    const response = await management("/authenticator-configurations/email-otp", { method: "DELETE" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.json()).toEqual({ success: true });

    await expectError(await management("/authenticator-configurations/email-otp"), 404, "not_found");
    await expectError(
      await management("/authenticator-configurations/email-otp", { method: "DELETE" }),
      404,
      "not_found",
    );

    const list = (await (
      await listAuthenticators(emulator, await tokenFor(emulator, "user_enrolled"))
    ).json()) as Array<{
      verificationMethod: string;
    }>;
    expect(list.map((a) => a.verificationMethod).sort()).toEqual(["PASSKEY", "PUSH", "SMS"]);
  });

  it.each([
    ["missing", null, undefined],
    ["wrong", "test_mgmt_us_wrong_wrong_wrong_wrong_1", undefined],
    ["a server secret key", US_TENANT.serverKey, undefined],
    ["another region's key", EU_TENANT.managementKey, undefined],
    ["malformed", null, "Basic %%%not-base64"],
    ["with a password", null, `Basic ${Buffer.from(`${US_TENANT.managementKey}:pw`).toString("base64")}`],
  ])("is 401 for a %s key", async (_name, key, header) => {
    const response = await management("/authenticator-configurations/email-otp", {
      method: "DELETE",
      key,
      headers: header ? { Authorization: header } : {},
    });
    await expectError(response, 401, "unauthorized");
    // Nothing was deleted.
    expect((await management("/authenticator-configurations/email-otp")).status).toBe(200);
  });
});

describe("GET /custom-data-points/{id}", () => {
  it("returns the data point", async () => {
    const response = await management("/custom-data-points/dp_tier");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: "dp_tier",
      name: "Tier",
      dataType: "text",
      modelType: "user",
      description: "Loyalty tier",
      isPublic: true,
    });
  });

  it("is 404 for an unknown id and 401 without a valid key", async () => {
    await expectError(await management("/custom-data-points/dp_nope"), 404, "not_found");
    await expectError(
      await management("/custom-data-points/dp_tier", { key: "nope_nope_nope_nope_nope" }),
      401,
      "unauthorized",
    );
  });

  it("is 401 for the tenant's server secret key (the spec says the keys differ)", async () => {
    await expectError(
      await management("/custom-data-points/dp_tier", { key: US_TENANT.serverKey }),
      401,
      "unauthorized",
    );
  });

  it("is 405 with Allow and the error body for a method other than GET", async () => {
    const response = await management("/custom-data-points/dp_tier", { method: "DELETE" });
    expect(response.headers.get("allow")).toBe("GET");
    await expectError(response, 405, "method_not_allowed");
  });

  it("is 404 not_found, not a 500, for a malformed percent-escape in the id", async () => {
    await expectError(await management("/custom-data-points/%E0%A4%A"), 404, "not_found");
    await expectError(await management("/custom-data-points/dp_%zz"), 404, "not_found");
  });
});

describe("routing", () => {
  it("answers 404 for unknown management paths and 405 with Allow for a wrong method", async () => {
    await expectError(await management("/tenant"), 404, "not_found");
    const wrongMethod = await management("/authenticator-configurations/email-otp", { method: "PUT" });
    expect(wrongMethod.headers.get("allow")).toBe("GET, DELETE");
    await expectError(wrongMethod, 405, "method_not_allowed");
    await expectError(await fetch(`${emulator.url}/xx/v1/management/tenant`), 404, "not_found");
  });
});
