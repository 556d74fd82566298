import { describe, expect, it } from "vitest";

import { RefusedAddressError } from "./address-policy";
import { outcomeForRole, urlForRole, urlOrigin } from "./shown-to-role";

describe("urlOrigin", () => {
  it.each([
    ["https://hooks.example.test/services/T000/B000/XXXXsecretXXXX?x=1#frag", "https://hooks.example.test"],
    ["http://127.0.0.1:8080/in/tok_abc?token=abc", "http://127.0.0.1:8080"],
    ["https://hooks.example.test:443/a", "https://hooks.example.test"],
    ["https://[::1]:8443/a", "https://[::1]:8443"],
    ["https://HOOKS.Example.test/a", "https://hooks.example.test"],
  ])("keeps of %s only %s", (url, origin) => {
    expect(urlOrigin(url)).toBe(origin);
  });

  it("shows nothing of what does not parse", () => {
    expect(urlOrigin("not a url /secret")).toBe("");
  });
});

describe("urlForRole", () => {
  it("shows admins the whole URL and support its origin, a token in the path included", () => {
    const url = "https://hooks.example.test/hook/tok_secret?key=abc";
    expect(urlForRole(url, "admin")).toBe(url);
    expect(urlForRole(url, "support")).toBe("https://hooks.example.test");
  });
});

describe("outcomeForRole", () => {
  // The words are the address policy's own: the reduction must keep up with them.
  const refused = new RefusedAddressError("10.0.0.5", "private").message;

  it("shows support a refused address by its range only, and admins the address", () => {
    expect(outcomeForRole(refused, "admin")).toBe("the address 10.0.0.5 is not allowed (private)");
    expect(outcomeForRole(refused, "support", "the destination's host")).toBe(
      "the destination's host resolves to an address that is not allowed (private)",
    );
    expect(
      outcomeForRole(
        `webhook: ${new RefusedAddressError("::a9fe:a9fe", "ipv4Compatible").message}`,
        "support",
        "the target's host",
      ),
    ).toBe("webhook: the target's host resolves to an address that is not allowed (ipv4Compatible)");
  });

  it("leaves every other outcome as it is", () => {
    for (const words of ["delivered: answered 200", "no answer within 10 s", "connection refused", "answered 500"]) {
      expect(outcomeForRole(words, "support")).toBe(words);
    }
  });
});
