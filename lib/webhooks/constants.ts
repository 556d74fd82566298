import { DELAY_BUCKETS } from "@/lib/db/delay-buckets";

/**
 * The log's filter vocabulary, client-safe and free of zod: the filter bar, the tables and the drawer
 * import this, so the schemas (lib/webhooks/schemas.ts) stay out of the browser bundle.
 */
/** Rows per page when the link does not say: what the log shows, and what its skeleton is sized for. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

export const ALL_TYPES = "all";
/** `connectionId=all` asks for every connection; the page without one shows the selected connection. */
export const ALL_CONNECTIONS = "all";
export const DEFAULT_EVENT_TYPE = "authenticator.expired";

/** A refusal's detail when a delivery carried no signature at all (alerts count these apart from wrong ones). */
export const MISSING_SIGNATURE_DETAIL = "X-Signature-V2 is missing";

/**
 * The id of a test event the console signs and sends to its own public receiver URL ("Send a test
 * event") starts with this; the service's own ids are UUIDs, so no real event is taken for a test.
 * The prefix is inside the signed body, so only a holder of the server key can mark an event a test.
 */
export const TEST_EVENT_ID_PREFIX = "console-test-";
export const isTestEventId = (eventId: string) => eventId.startsWith(TEST_EVENT_ID_PREFIX);
/** Why "Send a test event" cannot run: said by the disabled button and by the action alike. */
export const TEST_EVENT_NEEDS_SERVER_KEY = "The test needs the server key: add it in Settings and keys.";

/** The log's `test` filter: test events are listed with a badge unless the link says otherwise. */
export const TEST_EVENT_FILTERS = { exclude: "Real events only", only: "Test events only" } as const;
export type TestEventFilter = keyof typeof TEST_EVENT_FILTERS;
export const TEST_EVENT_FILTER_VALUES = Object.keys(TEST_EVENT_FILTERS) as TestEventFilter[];

/** The delivery-delay buckets: lib/db's, since an index is built on them. */
export { DELAY_BUCKETS };
export type DelayBucket = (typeof DELAY_BUCKETS)[number]["key"];
export const DELAY_BUCKET_VALUES = DELAY_BUCKETS.map((b) => b.key) as DelayBucket[];

/** The event kinds SERVICE-FACTS names; others are stored too and can be typed into the URL. */
export const KNOWN_EVENT_TYPES = [
  "authenticator.expired",
  "authenticator.created",
  "authenticator.updated",
  "authenticator.deleted",
] as const;

/**
 * SERVICE-FACTS' verification methods (its list ends in "...", so the stored values are offered too)
 * and the spec's platforms (6.1 names IOS and ANDROID only).
 */
export const KNOWN_METHODS = [
  "SMS",
  "EMAIL_OTP",
  "EMAIL_MAGIC_LINK",
  "AUTHENTICATOR_APP",
  "PASSKEY",
  "SECURITY_KEY",
  "PUSH",
  "WHATSAPP",
] as const;
export const KNOWN_PLATFORMS = ["IOS", "ANDROID"] as const;

/**
 * Relative time presets: the link says "last hour", not an instant, so a shared link means the last
 * hour whenever it is opened.
 */
export const RECEIVED_PRESETS = {
  "1h": { label: "Last hour", ms: 3_600_000 },
  "24h": { label: "Last 24 h", ms: 86_400_000 },
  "7d": { label: "Last 7 days", ms: 7 * 86_400_000 },
} as const;
export type ReceivedPreset = keyof typeof RECEIVED_PRESETS;
export const RECEIVED_PRESET_VALUES = Object.keys(RECEIVED_PRESETS) as ReceivedPreset[];

/** What the filter bar calls each parameter; messages about a link name parameters by these. */
export const FILTER_LABELS: Record<string, string> = {
  connectionId: "Connection",
  type: "Event type",
  verificationMethod: "Method",
  devicePlatform: "Platform",
  userId: "User id",
  userIdMatch: "User id match",
  userAuthenticatorId: "User authenticator id",
  received: "Received",
  receivedFrom: "Received from",
  receivedTo: "Received to",
  expiresFrom: "Expired from",
  expiresTo: "Expired to",
  reason: "Reason",
  test: "Test events",
  delay: "Delay",
  cursor: "Page",
  limit: "Rows per page",
};

/** The query string of a filter set, without defaults, so shared links stay short. */
export function filtersToQuery(
  filters: Partial<Record<string, string | number | undefined>>,
  omit: string[] = [],
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === "" || omit.includes(key)) continue;
    if (key === "type" && value === DEFAULT_EVENT_TYPE) continue;
    if (key === "userIdMatch" && value === "exact") continue;
    if (key === "limit" && Number(value) === DEFAULT_PAGE_SIZE) continue;
    params.set(key, String(value));
  }
  return params.toString();
}

/** How many filters a view applies (a phone's "Filters (n)"): the connection is the header's; a range counts once. */
export function countActiveFilters(filters: Partial<Record<string, string | number | undefined>>): number {
  const query = filtersToQuery(filters, ["cursor", "limit", "connectionId", "userIdMatch"]);
  return new Set([...new URLSearchParams(query).keys()].map((key) => key.replace(/(From|To)$/, ""))).size;
}
