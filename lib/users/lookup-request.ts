import type { LookupRequest } from "./schemas";

/**
 * The query parameters that ask the users page to run a lookup (which records an action at the tenant):
 * `connection=<id>`, added by the lookup form, names the connection it was asked in; `lookup=1` (a link
 * inside the console, such as the webhook log's) asks for one in the selected connection. The header's
 * connection switcher drops them from the address so that a switch never runs a lookup.
 */
export const lookupMarkerParams = ["connection", "lookup"] as const;

/**
 * What the users page does with its query: run the lookup, show the id's problem, or fill in the form and
 * ask. A lookup records an action at the tenant, so it runs only when all of these hold:
 * - the query asks for one (`connection=<id>` from the form, or `lookup=1` from a link inside the console);
 * - the request comes from the console itself (Fetch Metadata), not a link on another site;
 * - it is not the re-render of a server action (a connection switch, say, which also revalidates the page);
 * - the connection it was asked in is the one selected now (after a switch, it is not).
 */
export type LookupDecision =
  | { kind: "none" }
  | { kind: "invalid"; message: string }
  | { kind: "ask"; userId: string; reason: "link" | "unasked" | "other_connection" }
  | { kind: "run"; userId: string };

export function decideLookup(
  request: LookupRequest,
  context: {
    selectedConnectionId: string;
    requestHeaders: Pick<Headers, "get">;
    isRequestFromConsole: (headers: Pick<Headers, "get">) => boolean;
  },
): LookupDecision {
  if (request.userId === null) return { kind: "none" };
  if (!request.userId.success)
    return { kind: "invalid", message: request.userId.error.issues[0]?.message ?? "Check the user id." };
  const userId = request.userId.data;
  if (!context.isRequestFromConsole(context.requestHeaders)) return { kind: "ask", userId, reason: "link" };
  // Next renders the page again in a server action's response; that render is not a request for a lookup.
  if (!request.asked || context.requestHeaders.get("next-action")) return { kind: "ask", userId, reason: "unasked" };
  if (request.askedIn !== null && request.askedIn !== context.selectedConnectionId)
    return { kind: "ask", userId, reason: "other_connection" };
  return { kind: "run", userId };
}

/** The address without the lookup markers, or null when it has none: where a connection switch leaves the page. */
export function withoutLookupMarkers(
  pathAndQuery: string,
  markers: readonly string[] = lookupMarkerParams,
): string | null {
  const url = new URL(pathAndQuery, "http://console.invalid");
  if (!markers.some((m) => url.searchParams.has(m))) return null;
  for (const m of markers) url.searchParams.delete(m);
  const query = url.searchParams.toString();
  return `${url.pathname}${query ? `?${query}` : ""}${url.hash}`;
}
