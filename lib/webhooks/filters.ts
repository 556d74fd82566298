import { z } from "zod";
import { REJECTION_REASON_VALUES } from "./types";

/** The log's filters, as they appear in the URL (page) and the query string (API). Client-safe. */
const optionalText = z.string().trim().max(256).optional();
/** Method and platform are upper-case enum values in the spec; "push" finds PUSH. */
const optionalEnumText = z.string().trim().max(256).toUpperCase().optional();
const optionalTime = z.iso.datetime({ offset: true, message: "must be an ISO 8601 time" }).optional();
/** Rows per page when the link does not say: what the log shows, and what its skeleton is sized for. */
export const DEFAULT_PAGE_SIZE = 50;
const pageFields = {
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(DEFAULT_PAGE_SIZE),
};

export const ALL_TYPES = "all";
/** `connectionId=all` asks for every connection; the page without one shows the selected connection. */
export const ALL_CONNECTIONS = "all";
const connectionFilter = z.union([z.uuid(), z.literal(ALL_CONNECTIONS)]).optional();

/** The event kinds SERVICE-FACTS names; others are stored too and can be typed into the URL. */
export const KNOWN_EVENT_TYPES = ["authenticator.expired", "authenticator.created", "authenticator.updated", "authenticator.deleted"] as const;

export const eventFiltersSchema = z.object({
  connectionId: connectionFilter,
  type: z.string().trim().min(1).max(200).default("authenticator.expired"),
  verificationMethod: optionalEnumText,
  devicePlatform: optionalEnumText,
  userId: optionalText,
  userIdMatch: z.enum(["exact", "prefix"]).default("exact"),
  userAuthenticatorId: optionalText,
  receivedFrom: optionalTime,
  receivedTo: optionalTime,
  expiresFrom: optionalTime,
  expiresTo: optionalTime,
  ...pageFields,
});

export const rejectionFiltersSchema = z.object({
  connectionId: connectionFilter,
  reason: z.enum(REJECTION_REASON_VALUES).optional(),
  receivedFrom: optionalTime,
  receivedTo: optionalTime,
  ...pageFields,
});

export type EventFilters = z.infer<typeof eventFiltersSchema>;
export type RejectionFilters = z.infer<typeof rejectionFiltersSchema>;

export type ParsedFilters<T> = { ok: true; filters: T } | { ok: false; errorDescription: string };

type QueryInput = URLSearchParams | Record<string, string | string[] | undefined>;

/** Empty values count as absent (an empty form field); the first of repeated values is used. */
function toObject(input: QueryInput): Record<string, string> {
  const entries = input instanceof URLSearchParams ? [...input.entries()] : Object.entries(input);
  const out: Record<string, string> = {};
  for (const [key, value] of entries) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined && first !== "" && !(key in out)) out[key] = first;
  }
  return out;
}

function parseWith<T>(schema: z.ZodType<T>, input: QueryInput): ParsedFilters<T> {
  const result = schema.safeParse(toObject(input));
  if (result.success) return { ok: true, filters: result.data };
  const issue = result.error.issues[0];
  return { ok: false, errorDescription: issue ? `${issue.path.join(".")}: ${issue.message}` : "invalid query" };
}

export const parseEventFilters = (input: QueryInput) => parseWith(eventFiltersSchema, input);
export const parseRejectionFilters = (input: QueryInput) => parseWith(rejectionFiltersSchema, input);

/** What the log page's filter form calls each parameter. */
export const FILTER_LABELS: Record<string, string> = {
  connectionId: "Connection",
  type: "Event type",
  verificationMethod: "Method",
  devicePlatform: "Device platform",
  userId: "User id",
  userIdMatch: "User id match",
  userAuthenticatorId: "User authenticator id",
  receivedFrom: "Received from",
  receivedTo: "Received to",
  expiresFrom: "Expired from",
  expiresTo: "Expired to",
  reason: "Reason",
  cursor: "Page",
  limit: "Rows per page",
};

/** `?event=`: the event whose detail panel a link opens. */
export const openEventSchema = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export type IgnoredFilter = { name: string; label: string; message: string };

/**
 * For the page, where a hand-edited link should not cost the whole view: every parameter that does
 * not parse is left out (and reported, by its label), and the rest apply.
 */
export function parseFiltersLeniently<T>(schema: z.ZodType<T>, input: QueryInput): { filters: T; ignored: IgnoredFilter[] } {
  const values = toObject(input);
  const ignored: IgnoredFilter[] = [];
  for (;;) {
    const result = schema.safeParse(values);
    if (result.success) return { filters: result.data, ignored };
    for (const issue of result.error.issues) {
      const name = String(issue.path[0] ?? "");
      if (!(name in values)) throw new Error(`filter defaults do not parse: ${name}`);
      delete values[name];
      ignored.push({ name, label: FILTER_LABELS[name] ?? name, message: issue.message });
    }
  }
}

/** The query string of a filter set, without defaults, so shared links stay short. */
export function filtersToQuery(filters: Partial<Record<string, string | number | undefined>>, omit: string[] = []): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === "" || omit.includes(key)) continue;
    if (key === "type" && value === "authenticator.expired") continue;
    if (key === "userIdMatch" && value === "exact") continue;
    if (key === "limit" && Number(value) === DEFAULT_PAGE_SIZE) continue;
    params.set(key, String(value));
  }
  return params.toString();
}
