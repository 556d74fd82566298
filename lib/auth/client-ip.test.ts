import { describe, expect, it } from "vitest";

import { addressKey, clientAddress, SHARED_ADDRESS } from "./client-ip";

const xff = (value: string | string[] | undefined) => ({ "x-forwarded-for": value });

describe("clientAddress", () => {
  it("with no trusted proxy ignores X-Forwarded-For: every caller shares one key", () => {
    expect(clientAddress(xff("203.0.113.9"), 0)).toBe(SHARED_ADDRESS);
    expect(clientAddress(xff("198.51.100.1, 203.0.113.9"), 0)).toBe(SHARED_ADDRESS);
    expect(clientAddress(undefined, 0)).toBe(SHARED_ADDRESS);
  });

  it("with one proxy takes the right-most entry, whatever the caller put before it", () => {
    expect(clientAddress(xff("203.0.113.9"), 1)).toBe("203.0.113.9");
    // A spoofed entry sits left of the one the proxy appended.
    expect(clientAddress(xff("1.2.3.4, 203.0.113.9"), 1)).toBe("203.0.113.9");
    expect(clientAddress(xff(["1.2.3.4", "203.0.113.9"]), 1)).toBe("203.0.113.9");
    expect(clientAddress(xff("1.2.3.4,, 203.0.113.9 "), 1)).toBe("203.0.113.9");
  });

  it("keys an IPv6 caller by its /64, so one host's 2^64 addresses are one caller", () => {
    expect(clientAddress(xff("2001:DB8::1"), 1)).toBe("2001:db8::/64");
    expect(clientAddress(xff("2001:db8:0:0:ffff:ffff:ffff:ffff"), 1)).toBe("2001:db8::/64");
    expect(clientAddress(xff("2001:db8:1:2:3:4:5:6"), 1)).toBe("2001:db8:1:2::/64");
    // The next /64 is another caller.
    expect(clientAddress(xff("2001:db8:0:1::1"), 1)).toBe("2001:db8:0:1::/64");
    expect(addressKey("::1")).toBe("::/64");
  });

  it("keys an IPv4-mapped IPv6 address as the IPv4 address it is", () => {
    expect(clientAddress(xff("::ffff:203.0.113.9"), 1)).toBe("203.0.113.9");
    expect(clientAddress(xff("::FFFF:cb00:7109"), 1)).toBe("203.0.113.9");
    expect(addressKey("203.0.113.9")).toBe("203.0.113.9");
    // ipaddr.js alone would take these for IPv4; they are not addresses.
    expect(addressKey("203.0.113")).toBe(SHARED_ADDRESS);
    expect(addressKey("0x7f.1")).toBe(SHARED_ADDRESS);
  });

  it("with two proxies takes the second entry from the right", () => {
    expect(clientAddress(xff("1.2.3.4, 203.0.113.9, 10.0.0.2"), 2)).toBe("203.0.113.9");
    expect(clientAddress(xff("203.0.113.9, 10.0.0.2"), 2)).toBe("203.0.113.9");
  });

  it("falls back to the shared key, never to the caller's choice, when the header is missing, short or not an address", () => {
    expect(clientAddress(undefined, 1)).toBe(SHARED_ADDRESS);
    expect(clientAddress({}, 1)).toBe(SHARED_ADDRESS);
    expect(clientAddress(xff(""), 1)).toBe(SHARED_ADDRESS);
    expect(clientAddress(xff(" , "), 1)).toBe(SHARED_ADDRESS);
    expect(clientAddress(xff("10.0.0.2"), 2)).toBe(SHARED_ADDRESS);
    expect(clientAddress(xff("admin-bucket"), 1)).toBe(SHARED_ADDRESS);
    expect(clientAddress(xff(`${"9".repeat(5000)}`), 1)).toBe(SHARED_ADDRESS);
  });
});
