import { describe, expect, it } from "vitest";

import { isRequestFromConsole } from "./fetch-metadata";

const from = (site?: string) => new Headers(site === undefined ? {} : { "sec-fetch-site": site });

describe("isRequestFromConsole", () => {
  it("accepts a navigation inside the console and one typed or bookmarked", () => {
    expect(isRequestFromConsole(from("same-origin"))).toBe(true);
    expect(isRequestFromConsole(from("none"))).toBe(true);
  });

  it("refuses another site, a sibling subdomain and a browser that does not say", () => {
    expect(isRequestFromConsole(from("cross-site"))).toBe(false);
    expect(isRequestFromConsole(from("same-site"))).toBe(false);
    expect(isRequestFromConsole(from())).toBe(false);
    expect(isRequestFromConsole(from(""))).toBe(false);
    expect(isRequestFromConsole(from("Same-Origin"))).toBe(false);
  });
});
