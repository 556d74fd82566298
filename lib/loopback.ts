/** True for a host name only this machine can reach (URL.hostname form: IPv6 in brackets). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}
