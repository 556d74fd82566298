import { describe, expect, it } from "vitest";

import { emailOtpDisplayFields, formatSeconds } from "./fields";

describe("emailOtpDisplayFields", () => {
  it("labels the known fields in words, in a fixed order, and formats their values", () => {
    const fields = emailOtpDisplayFields({
      authenticatorId: "0f8c2b7e-1d2a-4c3b-9e8f-123456789abc",
      otpLifetimeInSeconds: 600,
      isActive: true,
      verificationMethod: "EMAIL_OTP",
      numberOfAttemptsAllowed: 5,
      emailProvider: "SENDGRID",
    });
    expect(fields.map((f) => [f.label, f.value])).toEqual([
      ["Active", "Yes"],
      ["Email provider", "SENDGRID"],
      ["Verification method", "EMAIL_OTP"],
      ["Attempts allowed", "5"],
      ["Code lifetime", "10 min (600 s)"],
      ["Authenticator id", "0f8c2b7e-1d2a-4c3b-9e8f-123456789abc"],
    ]);
    expect(fields[0]).toEqual({ name: "isActive", label: "Active", value: "Yes" });
  });

  it("keeps unknown fields after the known ones with a readable name, and drops secrets and objects", () => {
    const fields = emailOtpDisplayFields({
      isActive: false,
      resendCooldownInSeconds: 30,
      allowSignUp: true,
      apiKey: "sk_live_x",
      smtpPassword: "p",
      rateLimits: { perHour: 5 },
      fromName: null,
    });
    expect(fields.map((f) => [f.label, f.value])).toEqual([
      ["Active", "No"],
      ["Resend cooldown in seconds", "30"],
      ["Allow sign up", "Yes"],
    ]);
  });
});

describe("formatSeconds", () => {
  it("gives minutes with the exact seconds alongside", () => {
    expect(formatSeconds(600)).toBe("10 min (600 s)");
    expect(formatSeconds(90)).toBe("1 min 30 s (90 s)");
    expect(formatSeconds(60)).toBe("1 min (60 s)");
    expect(formatSeconds(45)).toBe("45 s");
  });
});
