/** Client-safe. */
import { oneLineName } from "@/lib/display-name";

/** Single-quoted for a POSIX shell: a quote inside becomes '\'' (close, escaped quote, reopen). */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * A curl command that replays an event's raw body to a connection's receiver. Placeholders only: the
 * receiver's token is a secret (it is the URL) and the signature needs a server key, neither of which
 * belongs in a clipboard or a support ticket. The reader fills in both.
 */
export function curlReplayCommand(rawBody: string, connectionName: string | null): string {
  return [
    // A name stored before names refused control characters could hold a line break: the rest of it would
    // leave the comment and run as a command.
    `# Replay to ${connectionName === null ? "the connection" : oneLineName(connectionName)}: set WEBHOOK_URL to its webhook URL (on the connection's page)`,
    `# and replace <signature> with t=<unix time>,v2=<HMAC-SHA256 of "t.body" with a server key>.`,
    `curl -X POST "\${WEBHOOK_URL:-https://<console>/api/webhooks/<token>}" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H 'X-Signature-V2: <signature>' \\`,
    `  --data-raw ${shellQuote(rawBody)}`,
  ].join("\n");
}
