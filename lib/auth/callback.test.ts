import { describe, expect, it } from "vitest";

import { safeCallbackPath } from "./callback";

describe("safeCallbackPath", () => {
  it("keeps a same-origin path with its query", () => {
    expect(safeCallbackPath("/webhooks?userId=usr_1")).toBe("/webhooks?userId=usr_1");
    expect(safeCallbackPath(["/audit", "/x"])).toBe("/audit");
  });

  it.each([
    "//evil.example",
    "/\\evil.example",
    "https://evil.example/",
    "/.//evil.example",
    "/..//evil.example",
    "/a/..//evil.example",
    "/./\\evil.example",
    "evil",
  ])("sends %s home instead of to another site", (value) => {
    const path = safeCallbackPath(value);
    expect(path).toBe("/");
    expect(new URL(path, "http://console.test").origin).toBe("http://console.test");
  });

  it("never returns to the sign-in page, an empty value or an over-long one", () => {
    expect(safeCallbackPath("/sign-in?callbackUrl=/x")).toBe("/");
    expect(safeCallbackPath(undefined)).toBe("/");
    expect(safeCallbackPath(`/${"a".repeat(3000)}`)).toBe("/");
  });
});
