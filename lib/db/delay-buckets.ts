/**
 * Delivery delay (first received − expiresAt) in the buckets of the overview's histogram and the log's `delay`
 * filter, in seconds, lower bound inclusive; below 0 counts as "under 1 min", and "over 24 h" is late by spec 6.1
 * rule 3. Here because an index is built on them (./event-expressions.ts): a bound changes by migration. Client-safe.
 */
export const DELAY_BUCKETS = [
  { key: "lt1m", label: "< 1 min", fromSeconds: null, toSeconds: 60 },
  { key: "1m-10m", label: "1–10 min", fromSeconds: 60, toSeconds: 600 },
  { key: "10m-1h", label: "10–60 min", fromSeconds: 600, toSeconds: 3_600 },
  { key: "1h-6h", label: "1–6 h", fromSeconds: 3_600, toSeconds: 21_600 },
  { key: "6h-24h", label: "6–24 h", fromSeconds: 21_600, toSeconds: 86_400 },
  { key: "gt24h", label: "> 24 h", fromSeconds: 86_400, toSeconds: null },
] as const;
