import { BlockList } from "node:net";

/**
 * The deprecated IPv4-compatible IPv6 range ::/96 (RFC 4291 2.5.5.1: ::7f00:1 is "::127.0.0.1"), but
 * :: and ::1, which ipaddr.js already names unspecified and loopback. ipaddr.js calls the rest unicast,
 * and it reads "::8.8.8.8" as ::ffff:8.8.8.8: Node's BlockList parses as the network stack does.
 */
const COMPATIBLE = new BlockList();
COMPATIBLE.addSubnet("::", 96, "ipv6");
const UNSPECIFIED_OR_LOOPBACK = new BlockList();
UNSPECIFIED_OR_LOOPBACK.addAddress("::", "ipv6");
UNSPECIFIED_OR_LOOPBACK.addAddress("::1", "ipv6");

/** Whether an IPv6 address (node:net's isIP says 6) is IPv4-compatible. */
export function isIpv4Compatible(address: string): boolean {
  return COMPATIBLE.check(address, "ipv6") && !UNSPECIFIED_OR_LOOPBACK.check(address, "ipv6");
}
