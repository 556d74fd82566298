/**
 * Whether a page request came from the console itself: a link or form inside it (`same-origin`) or an
 * address typed or bookmarked (`none`), as the browser's Fetch Metadata says. A link on any other site,
 * a sibling subdomain included (`same-site`), or a browser that sends no Sec-Fetch-Site, does not.
 * Pages use it to run a side effect that a link may ask for (a user lookup records an action at the
 * tenant) only when the signed-in user asked for it here.
 */
export function isRequestFromConsole(headers: Pick<Headers, "get">): boolean {
  const site = headers.get("sec-fetch-site");
  return site === "same-origin" || site === "none";
}
