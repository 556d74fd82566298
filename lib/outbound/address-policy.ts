import "server-only";

import type { LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";

import ipaddr from "ipaddr.js";

import { env } from "@/lib/env";

import { isIpv4Compatible } from "./ipv4-compatible";
import { dnsResolver } from "./resolve";

/**
 * Where the console may send a request to a URL someone typed: the static check of the URL, and of the addresses
 * its host resolves to, run again inside every connection (guardedLookup) against DNS rebinding. guarded-post.ts
 * is the one way such a URL is reached (ARCHITECTURE.md, "Outbound requests").
 */

/** Hosts an operator allows (CONSOLE_FORWARD_ALLOWED_HOSTS): reachable over http too, and at any address. */
export type OutboundPolicy = { allowedHosts: readonly string[] };

export function outboundPolicyFromEnv(): OutboundPolicy {
  return { allowedHosts: env().CONSOLE_FORWARD_ALLOWED_HOSTS };
}

export const MAX_URL_LENGTH = 2048;

/** Every address a host name has: resolveWithDns, or a test's stand-in that names the answer. */
export type ResolveAll = (hostname: string) => Promise<readonly LookupAddress[]>;

/** Every address of a name, within a deadline and off libuv's threads (resolve.ts says why). */
export const resolveWithDns: ResolveAll = dnsResolver();

export type DestinationRule = "too_long" | "invalid_url" | "scheme" | "credentials" | "refused_address" | "unresolved";

export type DestinationCheck = { ok: true; url: URL } | { ok: false; rule: DestinationRule; description: string };

export type AddressClass = { allowed: true } | { allowed: false; range: string };

/**
 * Whether the console may connect to an address: only ipaddr.js's "unicast" (public), an IPv4-mapped one judged as
 * its IPv4 address; anything else is refused by its range's name, and the IPv4-compatible `::/96` as
 * "ipv4Compatible". Why each: ARCHITECTURE.md, "Outbound requests".
 */
export function classifyAddress(address: string): AddressClass {
  // node:net is the strict parser: ipaddr.js alone also takes "1.2.3" or "0x7f.1".
  const family = isIP(address);
  if (!family) return { allowed: false, range: "not an IP address" };
  if (family === 6 && isIpv4Compatible(address)) return { allowed: false, range: "ipv4Compatible" };
  const range = ipaddr.process(address).range();
  return range === "unicast" ? { allowed: true } : { allowed: false, range };
}

function refusedWords(address: string, range: string): string {
  return `the address ${address} is not allowed (${range})`;
}

/** A connection refused by the policy: its message is the words shown to the user. */
export class RefusedAddressError extends Error {
  override name = "RefusedAddressError";
  readonly code = "ERR_OUTBOUND_REFUSED_ADDRESS";
  constructor(
    readonly address: string,
    readonly range: string,
  ) {
    super(refusedWords(address, range));
  }
}

/** An IP literal as URL.hostname writes it (IPv6 in brackets), bare; null for a host name. */
function ipLiteral(hostname: string): string | null {
  const bare = hostname.replace(/^\[(.*)\]$/, "$1");
  return isIP(bare) ? bare : null;
}

/** A host as the allowed list is compared: lower case, IPv6 without brackets and in its one short form. */
function hostKey(host: string): string {
  const bare = host.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return isIP(bare) === 6 ? ipaddr.IPv6.parse(bare).toString() : bare;
}

/** Whether the host is in the allowed list, as written there: the name, not the addresses it resolves to. */
export function isAllowedHost(hostname: string, policy: OutboundPolicy): boolean {
  const key = hostKey(hostname);
  return policy.allowedHosts.some((allowed) => hostKey(allowed) === key);
}

function refuse(rule: DestinationRule, description: string): DestinationCheck {
  return { ok: false, rule, description };
}

/**
 * The check of a destination URL without the network, for a form that saves one: each refusal names its
 * rule. An IP literal is judged here, as Node never calls `lookup` for one; a host name is judged by
 * resolveDestination when it is saved and by guardedLookup on every connection.
 */
export function checkDestinationUrl(raw: string, policy: OutboundPolicy): DestinationCheck {
  if (raw.length > MAX_URL_LENGTH)
    return refuse("too_long", `a destination URL has at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse("invalid_url", "not a URL: a destination URL starts with https://");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return refuse("scheme", "a destination URL starts with https://");
  }
  if (url.username || url.password) {
    return refuse(
      "credentials",
      "a destination URL carries no user name or password (user:pass@): send them in a header",
    );
  }
  // Stripped rather than refused: a fragment is never sent in a request, so without it url.href (what a
  // caller saves) is exactly what the destination receives.
  url.hash = "";
  const allowed = isAllowedHost(url.hostname, policy);
  if (url.protocol === "http:" && !allowed) {
    return refuse("scheme", "a destination URL starts with https://");
  }
  const literal = ipLiteral(url.hostname);
  if (literal && !allowed) {
    const verdict = classifyAddress(literal);
    if (!verdict.allowed) return refuse("refused_address", refusedWords(literal, verdict.range));
  }
  return { ok: true, url };
}

/**
 * The addresses a connection to `hostname` may use. Outside the allowed list, one refused address refuses
 * them all: which one a connection ends up on (Happy Eyeballs, a retry) is not ours to choose.
 */
async function resolveForConnection(
  hostname: string,
  policy: OutboundPolicy,
  resolveAll: ResolveAll,
): Promise<LookupAddress[]> {
  const addresses = [...(await resolveAll(hostname))];
  if (addresses.length === 0) throw Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" });
  if (isAllowedHost(hostname, policy)) return addresses;
  for (const { address } of addresses) {
    const verdict = classifyAddress(address);
    if (!verdict.allowed) throw new RefusedAddressError(address, verdict.range);
  }
  return addresses;
}

/**
 * checkDestinationUrl, then the host name resolved now, for feedback when a destination is saved. The
 * name may answer differently later, so this is advice: guardedLookup is the guard.
 */
export async function resolveDestination(
  url: string | URL,
  policy: OutboundPolicy,
  resolveAll: ResolveAll = resolveWithDns,
): Promise<DestinationCheck> {
  const checked = checkDestinationUrl(String(url), policy);
  if (!checked.ok || ipLiteral(checked.url.hostname)) return checked;
  const { hostname } = checked.url;
  try {
    await resolveForConnection(hostname, policy, resolveAll);
    return checked;
  } catch (error) {
    if (error instanceof RefusedAddressError)
      return refuse("refused_address", `${hostname} resolves to an address that is not allowed: ${error.message}`);
    return refuse("unresolved", `the host name ${hostname} could not be looked up`);
  }
}

/** A refusal's words (made to sit inside a sentence) as a sentence of their own. */
const sentence = (words: string) =>
  `${words.charAt(0).toUpperCase()}${words.slice(1)}${words.endsWith(".") ? "" : "."}`;

/**
 * What a form that saves a URL checks (a forwarding destination, an alert notice target): checkDestinationUrl,
 * then resolveDestination, answering the URL to save or the refusal as a sentence for the URL's field.
 */
export async function checkUrlToSave(
  raw: string,
  policy: OutboundPolicy,
  resolveAll: ResolveAll = resolveWithDns,
): Promise<{ ok: true; url: URL } | { ok: false; error: string }> {
  const checked = checkDestinationUrl(raw, policy);
  if (!checked.ok) return { ok: false, error: sentence(checked.description) };
  const resolved = await resolveDestination(checked.url, policy, resolveAll);
  return resolved.ok ? checked : { ok: false, error: sentence(resolved.description) };
}

/**
 * The `lookup` of every outbound connection: the check and the connection use the same answer, so there is
 * no second lookup a rebinding name could answer differently. Node asks with `all` when it may try several
 * addresses (autoSelectFamily, the default since Node 20), without it when it wants one.
 */
export function guardedLookup(policy: OutboundPolicy, resolveAll: ResolveAll = resolveWithDns): LookupFunction {
  return (hostname, options, callback) => {
    resolveForConnection(hostname, policy, resolveAll).then(
      (addresses) =>
        options.all ? callback(null, addresses) : callback(null, addresses[0]!.address, addresses[0]!.family),
      (error: NodeJS.ErrnoException) => callback(error, ""),
    );
  };
}
