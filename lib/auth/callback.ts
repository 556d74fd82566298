/**
 * The page to return to after sign-in: only a same-origin path ("/x", never "//host" or "/\host"),
 * so the sign-in page cannot be used to send someone elsewhere.
 */
export function safeCallbackPath(value: string | string[] | undefined): string {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw || !raw.startsWith("/") || raw.length > 2048) return "/";
  try {
    const url = new URL(raw, "http://console.invalid");
    // Checked after normalisation: "/.//host" and "/a/..//host" become "//host", which a browser
    // reads as another site.
    const path = url.pathname;
    if (
      url.origin !== "http://console.invalid" ||
      isProtocolRelative(raw) ||
      isProtocolRelative(path) ||
      path.startsWith("/sign-in")
    )
      return "/";
    return `${path}${url.search}`;
  } catch {
    return "/";
  }
}

function isProtocolRelative(path: string): boolean {
  return path.startsWith("//") || path.startsWith("/\\");
}
