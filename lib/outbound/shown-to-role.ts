import type { Role } from "@/lib/auth/roles";

/**
 * What support may see of a typed URL and of an attempt to reach it: its origin only (the path or query may hold
 * the receiver's credential), and of a refusal only that the host resolves to an address not allowed, not which.
 * Admins see both whole. Applied where a role's list is built.
 */

/** scheme://host[:port] of a URL: no user, path, query or fragment. */
export function urlOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    // Nothing stored is unparseable (every URL was parsed before it was saved); should one be, show nothing of it.
    return "";
  }
}

/** A destination's or notice target's URL as `role` may see it. */
export function urlForRole(url: string, role: Role): string {
  return role === "admin" ? url : urlOrigin(url);
}

/**
 * The words of address-policy.ts's refusedWords ("the address 10.0.0.5 is not allowed (private)"), which
 * RefusedAddressError carries into an attempt's stored outcome. Matched here rather than stored twice:
 * the outcome is written once, before anyone asks for it, and admins keep the address.
 */
const REFUSED_ADDRESS = /the address \S+ is not allowed \(([^)]*)\)/g;

/**
 * An attempt's outcome (a forward's, a notice's) as `role` may see it: for support, a refused address is
 * named by its range only. `host` says whose host it was ("the destination's host").
 */
export function outcomeForRole(outcome: string, role: Role, host = "the host"): string {
  if (role === "admin") return outcome;
  return outcome.replace(
    REFUSED_ADDRESS,
    (_, range: string) => `${host} resolves to an address that is not allowed (${range})`,
  );
}
