import { describe, expect, it } from "vitest";

import { hasRole, navItemsFor, roleForPath } from "./roles";

describe("roles", () => {
  it("admin includes support; support does not include admin", () => {
    expect(hasRole("admin", "support")).toBe(true);
    expect(hasRole("support", "admin")).toBe(false);
  });

  it("hides admin sections from support", () => {
    expect(navItemsFor("support").map((i) => i.label)).toEqual([
      "Overview",
      "Alerts",
      "Data points",
      "Webhooks",
      "Destinations",
      "Users",
    ]);
    expect(navItemsFor("admin")).toHaveLength(11);
  });

  it("maps paths to the role their section needs", () => {
    expect(roleForPath("/connections/abc/edit")).toBe("admin");
    expect(roleForPath("/audit")).toBe("admin");
    expect(roleForPath("/email-otp")).toBe("admin");
    expect(roleForPath("/team")).toBe("admin");
    expect(roleForPath("/tokens")).toBe("admin");
    expect(roleForPath("/webhooks")).toBe("support");
    expect(roleForPath("/alerts")).toBe("support");
    expect(roleForPath("/connectionsx")).toBe("support");
    expect(roleForPath("/")).toBe("support");
  });
});
