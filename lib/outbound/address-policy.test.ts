import type { LookupAddress } from "node:dns";

import { afterEach, describe, expect, it, vi } from "vitest";

import {
  checkDestinationUrl,
  classifyAddress,
  guardedLookup,
  isAllowedHost,
  MAX_URL_LENGTH,
  outboundPolicyFromEnv,
  RefusedAddressError,
  resolveDestination,
  type ResolveAll,
} from "./address-policy";

// Pure checks: nothing here opens a socket. A public address below is only ever classified or handed back
// by a stand-in resolver, never connected to.

const policy = { allowedHosts: ["127.0.0.1"] };

/** A stand-in resolver: each made-up name answers the addresses given, any other name is not found. */
function resolver(table: Record<string, string[]>): ResolveAll {
  return async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    return addresses.map((address): LookupAddress => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
}

describe("classifyAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.0.0.2", "loopback"],
    ["::1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["fe80::1", "linkLocal"],
    ["fd00::1", "uniqueLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["ff02::1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["192.0.2.1", "reserved"],
    ["2001:db8::1", "reserved"],
    ["64:ff9b::a00:1", "rfc6052"],
    ["2002:a00:1::", "6to4"],
    ["::ffff:10.0.0.1", "private"],
    // IPv4-compatible (::/96, deprecated): what it carries is loopback, the metadata service, private or even public.
    ["::7f00:1", "ipv4Compatible"],
    ["::a9fe:a9fe", "ipv4Compatible"],
    ["::a00:5", "ipv4Compatible"],
    ["::808:808", "ipv4Compatible"],
    ["::8.8.8.8", "ipv4Compatible"],
    ["0:0:0:0:0:0:127.0.0.1", "ipv4Compatible"],
    ["::2", "ipv4Compatible"],
    ["1.2.3", "not an IP address"],
    ["0x7f.1", "not an IP address"],
    ["example.com", "not an IP address"],
  ])("refuses %s (%s)", (address, range) => {
    expect(classifyAddress(address)).toEqual({ allowed: false, range });
  });

  it.each(["8.8.8.8", "2606:4700::1111"])("allows the public address %s", (address) => {
    expect(classifyAddress(address)).toEqual({ allowed: true });
  });
});

describe("checkDestinationUrl", () => {
  it("accepts https to a name and strips a fragment, which is never sent", () => {
    const checked = checkDestinationUrl("https://hooks.example.test/in?x=1#part", policy);
    expect(checked.ok && checked.url.href).toBe("https://hooks.example.test/in?x=1");
  });

  it.each([
    ["not a url", "invalid_url"],
    ["ftp://hooks.example.test/", "scheme"],
    ["javascript:alert(1)", "scheme"],
    ["file:///etc/passwd", "scheme"],
    ["http://hooks.example.test/", "scheme"],
    ["https://user:pass@hooks.example.test/", "credentials"],
    ["https://user@hooks.example.test/", "credentials"],
    ["http://user:pass@127.0.0.1/", "credentials"],
    ["https://127.0.0.2/", "refused_address"],
    ["https://[::1]/", "refused_address"],
    ["https://[::ffff:127.0.0.1]/", "refused_address"],
    ["https://[::7f00:1]/", "refused_address"],
    ["https://[::169.254.169.254]/", "refused_address"],
    ["https://0x7f.0.0.2/", "refused_address"],
    ["https://2130706434/", "refused_address"],
    ["https://169.254.169.254/latest/meta-data/", "refused_address"],
    [`https://hooks.example.test/${"a".repeat(MAX_URL_LENGTH)}`, "too_long"],
  ])("refuses %s (%s)", (raw, rule) => {
    const checked = checkDestinationUrl(raw, policy);
    expect(checked.ok ? null : checked.rule).toBe(rule);
  });

  it("names the address and its range", () => {
    expect(checkDestinationUrl("https://127.0.0.2:8443/", policy)).toEqual({
      ok: false,
      rule: "refused_address",
      description: "the address 127.0.0.2 is not allowed (loopback)",
    });
    expect(checkDestinationUrl("http://hooks.example.test/", policy)).toMatchObject({
      description: expect.stringContaining("https"),
    });
  });

  it("lets an allowed host use http and any address, and allows it as a name, not as the addresses it resolves to", () => {
    expect(checkDestinationUrl("http://127.0.0.1:8080/in", policy).ok).toBe(true);
    expect(checkDestinationUrl("https://127.0.0.1/", policy).ok).toBe(true);
    expect(checkDestinationUrl("http://localhost:8080/", policy).ok).toBe(false);
    expect(checkDestinationUrl("http://[::1]:8080/", { allowedHosts: ["::1"] }).ok).toBe(true);
  });
});

describe("isAllowedHost", () => {
  it("compares lower-cased, with or without IPv6 brackets, in any spelling of an IPv6 address", () => {
    const allowed = { allowedHosts: ["Hooks.Example.TEST", "[0:0:0:0:0:0:0:1]", "fd00::1"] };
    expect(isAllowedHost("hooks.example.test", allowed)).toBe(true);
    expect(isAllowedHost("[::1]", allowed)).toBe(true);
    expect(isAllowedHost("[fd00::1]", allowed)).toBe(true);
    expect(isAllowedHost("other.example.test", allowed)).toBe(false);
    expect(isAllowedHost("sub.hooks.example.test", allowed)).toBe(false);
  });
});

describe("resolveDestination", () => {
  const lookup = resolver({
    "rebind.invalid": ["127.0.0.2"],
    "mixed.invalid": ["8.8.8.8", "::1"],
    "public.invalid": ["8.8.8.8", "2606:4700::1111"],
    "compatible.invalid": ["8.8.8.8", "::a9fe:a9fe"],
    "empty.invalid": [],
  });

  it("refuses a name when any address it resolves to is refused", async () => {
    expect(await resolveDestination("https://rebind.invalid/", policy, lookup)).toEqual({
      ok: false,
      rule: "refused_address",
      description:
        "rebind.invalid resolves to an address that is not allowed: the address 127.0.0.2 is not allowed (loopback)",
    });
    expect(await resolveDestination("https://mixed.invalid/", policy, lookup)).toMatchObject({
      rule: "refused_address",
    });
    expect(await resolveDestination("https://compatible.invalid/", policy, lookup)).toMatchObject({
      rule: "refused_address",
      description: expect.stringContaining("the address ::a9fe:a9fe is not allowed (ipv4Compatible)"),
    });
  });

  it("accepts a name whose every address is public, and an allowed name whatever it resolves to", async () => {
    expect((await resolveDestination("https://public.invalid/", policy, lookup)).ok).toBe(true);
    expect((await resolveDestination("http://rebind.invalid/", { allowedHosts: ["rebind.invalid"] }, lookup)).ok).toBe(
      true,
    );
  });

  it("names a name that does not resolve, and passes on the static refusals", async () => {
    expect(await resolveDestination("https://missing.invalid/", policy, lookup)).toMatchObject({
      ok: false,
      rule: "unresolved",
    });
    expect(await resolveDestination("https://empty.invalid/", policy, lookup)).toMatchObject({
      ok: false,
      rule: "unresolved",
    });
    expect(await resolveDestination("http://public.invalid/", policy, lookup)).toMatchObject({
      ok: false,
      rule: "scheme",
    });
    expect(await resolveDestination(new URL("https://127.0.0.2/"), policy, lookup)).toMatchObject({
      ok: false,
      rule: "refused_address",
    });
  });
});

describe("guardedLookup", () => {
  const lookup = guardedLookup(
    policy,
    resolver({ "mixed.invalid": ["8.8.8.8", "::1"], "public.invalid": ["8.8.8.8", "2606:4700::1111"] }),
  );
  const ask = (hostname: string, all: boolean) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) =>
      lookup(hostname, { all }, (error, address, family) => resolve({ error, address, family })),
    );

  it("answers every address when asked for all, the first one otherwise", async () => {
    expect((await ask("public.invalid", true)).address).toEqual([
      { address: "8.8.8.8", family: 4 },
      { address: "2606:4700::1111", family: 6 },
    ]);
    expect(await ask("public.invalid", false)).toEqual({ error: null, address: "8.8.8.8", family: 4 });
  });

  it("refuses the connection when any address is refused, with the words of that address", async () => {
    for (const all of [true, false]) {
      const { error } = await ask("mixed.invalid", all);
      expect(error).toBeInstanceOf(RefusedAddressError);
      expect(error?.message).toBe("the address ::1 is not allowed (loopback)");
    }
  });

  it("passes the resolver's own error on", async () => {
    expect((await ask("missing.invalid", true)).error?.code).toBe("ENOTFOUND");
  });
});

describe("outboundPolicyFromEnv", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("reads CONSOLE_FORWARD_ALLOWED_HOSTS", () => {
    vi.stubEnv("CONSOLE_FORWARD_ALLOWED_HOSTS", "127.0.0.1, Hooks.Example.TEST");
    expect(outboundPolicyFromEnv()).toEqual({ allowedHosts: ["127.0.0.1", "hooks.example.test"] });
  });
});
