/**
 * Delivery delay (first received − expiresAt) in the buckets the overview's histogram draws and the
 * log's `delay` filter takes; the service may send up to 24 hours after the expiry (spec 6.1 rule 3),
 * so "over 24 h" is late by the spec's own rule. Bounds in seconds, lower inclusive, upper exclusive;
 * a delay below 0 (received before the stated expiry) counts as "under 1 min".
 *
 * Here, not in lib/webhooks, because an index is built on them (deliveryDelayBucket in
 * ./event-expressions.ts): changing a bound takes a migration. Client-safe (no imports), so the log's
 * vocabulary (lib/webhooks/constants.ts) hands them on to the filter bar.
 */
export const DELAY_BUCKETS = [
  { key: "lt1m", label: "< 1 min", fromSeconds: null, toSeconds: 60 },
  { key: "1m-10m", label: "1–10 min", fromSeconds: 60, toSeconds: 600 },
  { key: "10m-1h", label: "10–60 min", fromSeconds: 600, toSeconds: 3_600 },
  { key: "1h-6h", label: "1–6 h", fromSeconds: 3_600, toSeconds: 21_600 },
  { key: "6h-24h", label: "6–24 h", fromSeconds: 21_600, toSeconds: 86_400 },
  { key: "gt24h", label: "> 24 h", fromSeconds: 86_400, toSeconds: null },
] as const;
