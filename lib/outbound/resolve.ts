import "server-only";

import { promises as dns, lookup as systemLookup, type LookupAddress } from "node:dns";

/**
 * How the console resolves the host names of typed URLs: with Node's DNS client (c-ares) under a deadline, not
 * getaddrinfo, whose hang would hold libuv's threads and with them sign-in's hashes; a name the DNS servers do not
 * know goes to getaddrinfo one at a time. Why: ARCHITECTURE.md, "Outbound requests".
 */

/** A whole look-up's deadline (each DNS server asked once more after its first timeout). */
export const LOOKUP_TIMEOUT_MS = 2_000;

/** The codes with which the DNS servers say the name has no address: then the system's own names are asked. */
const UNKNOWN_NAME = new Set(["ENOTFOUND", "ENODATA"]);

type Options = { servers?: string[]; timeoutMs?: number };

const timeoutError = (hostname: string) =>
  Object.assign(new Error(`looking up ${hostname} took too long`), { code: "ETIMEOUT" });

/** A resolver of every address of a name: A and AAAA records, then the system's names, all within `timeoutMs`. */
export function dnsResolver({ servers, timeoutMs = LOOKUP_TIMEOUT_MS }: Options = {}): (
  hostname: string,
) => Promise<LookupAddress[]> {
  const resolver = new dns.Resolver({ timeout: Math.ceil(timeoutMs / 2), tries: 1 });
  if (servers) resolver.setServers(servers);
  let systemLookupBusy: Promise<unknown> = Promise.resolve();

  function fromSystem(hostname: string, deadline: number): Promise<LookupAddress[]> {
    const asked = systemLookupBusy.then(
      () =>
        new Promise<LookupAddress[]>((resolve, reject) => {
          if (Date.now() >= deadline) return reject(timeoutError(hostname));
          systemLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
        }),
    );
    systemLookupBusy = asked.catch(() => undefined);
    return withDeadline(asked, deadline, hostname);
  }

  return async (hostname) => {
    const deadline = Date.now() + timeoutMs;
    const [v4, v6] = await withDeadline(
      Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]),
      deadline,
      hostname,
    );
    const addresses: LookupAddress[] = [
      ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (addresses.length > 0) return addresses;
    const codes = [v4, v6].map((result) =>
      result.status === "rejected" ? (result.reason as NodeJS.ErrnoException).code : "ENODATA",
    );
    if (codes.every((code) => code !== undefined && UNKNOWN_NAME.has(code))) return fromSystem(hostname, deadline);
    throw v4.status === "rejected" ? v4.reason : (v6 as PromiseRejectedResult).reason;
  };
}

function withDeadline<T>(promise: Promise<T>, deadline: number, hostname: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeoutError(hostname)), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
