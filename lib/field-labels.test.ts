import { describe, expect, it } from "vitest";

import { formatYesNo, humanizeFieldName } from "./field-labels";

describe("humanizeFieldName", () => {
  it("splits camelCase, snake_case and acronyms into a sentence-case label", () => {
    expect(humanizeFieldName("numberOfAttemptsAllowed")).toBe("Number of attempts allowed");
    expect(humanizeFieldName("rate_limit_window")).toBe("Rate limit window");
    expect(humanizeFieldName("smtpHostURLOverride")).toBe("Smtp host url override");
    expect(humanizeFieldName("name")).toBe("Name");
  });
});

describe("formatYesNo", () => {
  it("words a boolean", () => {
    expect([formatYesNo(true), formatYesNo(false)]).toEqual(["Yes", "No"]);
  });
});
