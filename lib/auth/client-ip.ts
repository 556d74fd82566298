import "server-only";
import { isIP } from "node:net";

/** The throttle key every caller shares when the console cannot tell callers apart. */
export const SHARED_ADDRESS = "direct";

type HeaderBag = Record<string, string | string[] | undefined> | undefined;

/**
 * The caller's address for the sign-in throttle, given how many proxies the console trusts
 * (CONSOLE_TRUSTED_PROXY_HOPS). Each trusted proxy appends the address it received the request from
 * to X-Forwarded-For, so with N of them the N-th entry from the right is the last address no caller
 * could write; everything left of it may be invented.
 *
 * With 0 the header is ignored: Next's server sets it from the socket only when the request carries
 * none, so a caller could choose its own key. Every caller then shares one key. A header too short
 * for N, or an entry that is not an address, also falls back to the shared key, never to a value the
 * caller chose.
 */
export function clientAddress(headers: HeaderBag, hops: number): string {
  if (hops <= 0) return SHARED_ADDRESS;
  const raw = headers?.["x-forwarded-for"];
  const entries = (Array.isArray(raw) ? raw.join(",") : (raw ?? ""))
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const entry = entries.length >= hops ? entries[entries.length - hops]!.toLowerCase() : "";
  return isIP(entry) ? entry : SHARED_ADDRESS;
}
