import type { LookupRequest } from "./schemas";

/**
 * The query parameters that ask the users page to run a lookup (which records an action at the tenant):
 * `connection=<id>` from the lookup form, or `lookup=1` from a link inside the console for the selected one. The
 * header's connection switcher drops them, so that a switch never runs a lookup.
 */
export const lookupMarkerParams = ["connection", "lookup"] as const;

/**
 * What the users page does with its query: run the lookup, show the id's problem, or fill in the form and ask. A
 * lookup runs only when the query asks for one, the request comes from the console itself (Fetch Metadata), it is
 * not a server action's re-render, and its connection is the one selected now.
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
