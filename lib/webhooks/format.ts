/** Display helpers for the log. Client-safe. */
import { formatDuration } from "@/lib/time-format";

/** Received − expiresAt, as "45 s", "12 min", "3 h 5 min". Negative (clock skew) shows as "early". */
export function formatDelay(receivedAt: string, expiresAt: string | null): string {
  if (!expiresAt) return "—";
  const seconds = Math.round((Date.parse(receivedAt) - Date.parse(expiresAt)) / 1000);
  if (seconds < 0) return `${formatDuration(-seconds)} early`;
  return formatDuration(seconds);
}

/** The service may deliver up to 24 h after expiry (spec 6.1 rule 3): only beyond that is a delay unusual. */
export function isDelayBeyondSpec(receivedAt: string, expiresAt: string | null): boolean {
  return !!expiresAt && Date.parse(receivedAt) - Date.parse(expiresAt) > 24 * 3600 * 1000;
}

/** `short` fits a table column; `label` and `title` say it in full. */
export const signatureLabels: Record<
  string,
  { label: string; short: string; tone: "success" | "warning" | "neutral"; title: string }
> = {
  verified_key1: {
    label: "verified (key 1)",
    short: "key 1",
    tone: "success",
    title: "Signature matched the current server secret key.",
  },
  verified_key2: {
    label: "verified (key 2)",
    short: "key 2",
    tone: "success",
    title: "Signature matched the secondary server key (being rotated out).",
  },
  unsigned: {
    label: "unsigned",
    short: "unsigned",
    tone: "warning",
    title: "No server key is stored for this connection, so the signature was not checked.",
  },
};
