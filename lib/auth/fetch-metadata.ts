/**
 * Whether a page request came from the console itself (Sec-Fetch-Site `same-origin`, or `none` when typed or
 * bookmarked); `same-site`, another site or no header does not. Pages run a side effect a link may ask for (a user
 * lookup records an action at the tenant) only when the signed-in user asked for it here.
 */
export function isRequestFromConsole(headers: Pick<Headers, "get">): boolean {
  const site = headers.get("sec-fetch-site");
  return site === "same-origin" || site === "none";
}
