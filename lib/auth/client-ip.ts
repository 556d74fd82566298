import "server-only";

import { isIP } from "node:net";

import ipaddr from "ipaddr.js";

/** The throttle key every caller shares when the console cannot tell callers apart. */
export const SHARED_ADDRESS = "direct";

/**
 * How many leading bits of an IPv6 address name one caller. A home or cloud host is handed a whole
 * /64 (RFC 6177), so keying each address apart would give one machine 2^64 fresh keys.
 */
export const IPV6_PREFIX_LENGTH = 64;

type HeaderBag = Record<string, string | string[] | undefined> | undefined;

/**
 * The throttle key of one address: an IPv4 address as it is (also when written IPv4-mapped,
 * `::ffff:1.2.3.4`, which is the same caller), an IPv6 address as its /64 network (`2001:db8:1:2::/64`).
 * Anything that is not an address is the shared key.
 */
export function addressKey(address: string): string {
  // node:net is the strict check (ipaddr.js also takes "1.2.3" or "0x7f.1"); ipaddr.js does the arithmetic.
  if (!isIP(address)) return SHARED_ADDRESS;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/${IPV6_PREFIX_LENGTH}`).toString()}/${IPV6_PREFIX_LENGTH}`;
}

/**
 * The caller's throttle key (see addressKey): the N-th X-Forwarded-For entry from the right for N trusted proxies
 * (CONSOLE_TRUSTED_PROXY_HOPS), the last one no caller could write. With 0, a header too short or an entry that is
 * not an address, the shared key, never a value the caller chose (docs/sign-in-and-teams.md, "Behind a proxy").
 */
export function clientAddress(headers: HeaderBag, hops: number): string {
  if (hops <= 0) return SHARED_ADDRESS;
  const raw = headers?.["x-forwarded-for"];
  const entries = (Array.isArray(raw) ? raw.join(",") : (raw ?? ""))
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.length >= hops ? addressKey(entries[entries.length - hops]!) : SHARED_ADDRESS;
}
