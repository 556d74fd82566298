/**
 * The page to return to after sign-in: only a same-origin path ("/x", never "//host" or "/\host"),
 * so the sign-in page cannot be used to send someone elsewhere.
 */
export function safeCallbackPath(value: string | string[] | undefined): string {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw || !raw.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\") || raw.length > 2048) return "/";
  try {
    const url = new URL(raw, "http://console.invalid");
    if (url.origin !== "http://console.invalid" || url.pathname.startsWith("/sign-in")) return "/";
    return `${url.pathname}${url.search}`;
  } catch {
    return "/";
  }
}
