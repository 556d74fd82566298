import { describe, expect, it } from "vitest";

import { describeAuditOutcome, shortRequestId } from "./display";

describe("describeAuditOutcome", () => {
  it("words an accepted key check as verified instead of showing the probe's 404", () => {
    for (const action of ["connection.created", "connection.key_replaced"]) {
      const shown = describeAuditOutcome({ action, outcome: "success", httpStatus: 404 });
      expect(shown.text).toBe("success · key verified");
      expect(shown.text).not.toContain("404");
      expect(shown.title).toContain("HTTP 404");
    }
    expect(describeAuditOutcome({ action: "connection.created", outcome: "success", httpStatus: 200 }).text).toBe(
      "success · key verified",
    );
  });

  it("says when a key was saved without a working check", () => {
    expect(describeAuditOutcome({ action: "connection.created", outcome: "success", httpStatus: 503 })).toMatchObject({
      text: "success · key not verified (HTTP 503)",
    });
  });

  it("shows the HTTP status of other service calls, explained in the tooltip", () => {
    expect(describeAuditOutcome({ action: "email_otp.deleted", outcome: "failure", httpStatus: 404 })).toEqual({
      text: "failure · HTTP 404",
      title: "HTTP status of the service call behind this change.",
    });
    expect(describeAuditOutcome({ action: "email_otp.deleted", outcome: "success", httpStatus: 200 }).text).toBe(
      "success · HTTP 200",
    );
  });

  it("says a test event's status is the receiver's answer", () => {
    expect(describeAuditOutcome({ action: "webhook.test_sent", outcome: "failure", httpStatus: 401 })).toEqual({
      text: "failure · HTTP 401",
      title: "HTTP status the receiver answered the console's test event.",
    });
  });

  it("counts the attempts of a record that stands for many, with the last one's time in the tooltip", () => {
    const repeats = { count: 37, lastAt: "2031-04-01T10:14:59.000Z" };
    expect(describeAuditOutcome({ action: "sign_in.throttled", outcome: "denied", httpStatus: null, repeats })).toEqual(
      {
        text: "denied · 37 attempts",
        title:
          "37 attempts, the first at the time shown, the last at 2031-04-01 10:14:59 UTC: repeats within 15 minutes share one record.",
      },
    );
    expect(
      describeAuditOutcome({
        action: "sign_in.throttled",
        outcome: "denied",
        httpStatus: null,
        repeats: { ...repeats, count: 1 },
      }),
    ).toEqual({ text: "denied" });
  });

  it("shows only the outcome when no service call was made", () => {
    expect(describeAuditOutcome({ action: "connection.deleted", outcome: "success", httpStatus: null })).toEqual({
      text: "success",
    });
  });
});

describe("shortRequestId", () => {
  it("keeps the first 8 characters of a long id and leaves a short one alone", () => {
    expect(shortRequestId("0f8c2b7e-1d2a-4c3b-9e8f-123456789abc")).toBe("0f8c2b7e…");
    expect(shortRequestId("req_1")).toBe("req_1");
    expect(shortRequestId("12345678")).toBe("12345678");
  });
});
