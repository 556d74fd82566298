import { z } from "zod";
import {
  ALL_CONNECTIONS,
  DEFAULT_EVENT_TYPE,
  DEFAULT_PAGE_SIZE,
  DELAY_BUCKET_VALUES,
  FILTER_LABELS,
  MAX_PAGE_SIZE,
  RECEIVED_PRESET_VALUES,
  TEST_EVENT_FILTER_VALUES,
} from "./constants";
import { REJECTION_REASON_VALUES } from "./types";

// The vocabulary lives in ./constants (no zod) so client components need not bundle the schemas;
// re-exported here for the server side, which reads filters from one place.
export { ALL_CONNECTIONS, ALL_TYPES, DEFAULT_PAGE_SIZE, FILTER_LABELS, filtersToQuery, KNOWN_EVENT_TYPES } from "./constants";

/** The log's filters, as they appear in the URL (page) and the query string (API). Every message is said to a person. */
const optionalText = z.string().trim().max(256, { error: "must be at most 256 characters" }).optional();
/** Method and platform are upper-case enum values in the spec; "push" finds PUSH. */
const optionalEnumText = optionalText.transform((v) => v?.toUpperCase());
const optionalTime = z.iso.datetime({ offset: true, error: "must be an ISO 8601 time, e.g. 2026-01-31T12:00:00Z" }).optional();
const wholeNumber = { error: `must be a whole number from 1 to ${MAX_PAGE_SIZE}` };
const pageFields = {
  cursor: z.string().max(200, { error: "not a page of this log" }).optional(),
  limit: z.coerce.number(wholeNumber).int(wholeNumber).min(1, wholeNumber).max(MAX_PAGE_SIZE, wholeNumber).default(DEFAULT_PAGE_SIZE),
};
const notAConnection = { error: "must be a connection's id, or all" };
const connectionFilter = z.union([z.uuid(notAConnection), z.literal(ALL_CONNECTIONS, notAConnection)], notAConnection).optional();
const receivedPreset = z.enum(RECEIVED_PRESET_VALUES, { error: `must be one of ${RECEIVED_PRESET_VALUES.join(", ")}` }).optional();

export const eventFiltersSchema = z.object({
  connectionId: connectionFilter,
  type: z.string().trim().min(1, { error: "must not be empty" }).max(200, { error: "must be at most 200 characters" }).default(DEFAULT_EVENT_TYPE),
  verificationMethod: optionalEnumText,
  devicePlatform: optionalEnumText,
  userId: optionalText,
  userIdMatch: z.enum(["exact", "prefix"], { error: "must be exact or prefix" }).default("exact"),
  userAuthenticatorId: optionalText,
  received: receivedPreset,
  receivedFrom: optionalTime,
  receivedTo: optionalTime,
  expiresFrom: optionalTime,
  expiresTo: optionalTime,
  /** Absent: real and test events alike (test events carry a badge). */
  test: z.enum(TEST_EVENT_FILTER_VALUES, { error: `must be one of ${TEST_EVENT_FILTER_VALUES.join(", ")}` }).optional(),
  /** First received − expiresAt, in one of the overview histogram's buckets; an event without expiresAt never matches. */
  delay: z.enum(DELAY_BUCKET_VALUES, { error: `must be one of ${DELAY_BUCKET_VALUES.join(", ")}` }).optional(),
  ...pageFields,
});

export const rejectionFiltersSchema = z.object({
  connectionId: connectionFilter,
  reason: z.enum(REJECTION_REASON_VALUES, { error: `must be one of ${REJECTION_REASON_VALUES.join(", ")}` }).optional(),
  received: receivedPreset,
  receivedFrom: optionalTime,
  receivedTo: optionalTime,
  ...pageFields,
});

export type EventFilters = z.infer<typeof eventFiltersSchema>;
export type RejectionFilters = z.infer<typeof rejectionFiltersSchema>;

export type ParsedFilters<T> = { ok: true; filters: T } | { ok: false; errorDescription: string };

type QueryInput = URLSearchParams | Record<string, string | string[] | undefined>;
type FilterSchema<T> = z.ZodType<T> & { shape: Record<string, unknown> };

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

export type IgnoredFilter = { name: string; label: string; message: string };

/** Parameters people (and other tools' links) use for ours; a name not here gets no suggestion. */
const LIKELY_MEANT: Record<string, string> = {
  method: "verificationMethod",
  verification_method: "verificationMethod",
  platform: "devicePlatform",
  device_platform: "devicePlatform",
  device: "devicePlatform",
  user: "userId",
  user_id: "userId",
  useruuid: "userId",
  authenticator: "userAuthenticatorId",
  user_authenticator_id: "userAuthenticatorId",
  connection: "connectionId",
  connection_id: "connectionId",
  event_type: "type",
  eventtype: "type",
  since: "received",
  from: "receivedFrom",
  to: "receivedTo",
  is_test: "test",
  istest: "test",
  tests: "test",
  delay_bucket: "delay",
  page_size: "limit",
  pagesize: "limit",
  per_page: "limit",
  size: "limit",
};

function unknownParameter(name: string, value: string, known: string[]): IgnoredFilter {
  const lower = name.toLowerCase();
  const meant = known.find((k) => k.toLowerCase() === lower) ?? (known.includes(LIKELY_MEANT[lower] ?? "") ? LIKELY_MEANT[lower] : undefined);
  const hint = meant ? `; did you mean ${FILTER_LABELS[meant] ?? meant} (${meant}=${value})?` : "";
  return { name, label: name, message: `not a filter of this log${hint}` };
}

/** A left-out parameter in one sentence: "Rows per page (limit): must be a whole number from 1 to 200". */
export function describeIgnored(f: IgnoredFilter): string {
  return f.label === f.name ? `${f.name}: ${f.message}` : `${f.label} (${f.name}): ${f.message}`;
}

/**
 * For the page, where a hand-edited link should not cost the whole view: every parameter that does
 * not parse, or that is no filter of this log, is left out (and reported, by its label); the rest apply.
 */
export function parseFiltersLeniently<T>(schema: FilterSchema<T>, input: QueryInput): { filters: T; ignored: IgnoredFilter[] } {
  const values = toObject(input);
  const known = Object.keys(schema.shape);
  const ignored: IgnoredFilter[] = [];
  for (const name of Object.keys(values)) {
    if (known.includes(name)) continue;
    ignored.push(unknownParameter(name, values[name]!, known));
    delete values[name];
  }
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

/** For the API: the same parse, but the first problem refuses the request (a script should not get a different set than it asked for). */
function parseStrictly<T>(schema: FilterSchema<T>, input: QueryInput): ParsedFilters<T> {
  const { filters, ignored } = parseFiltersLeniently(schema, input);
  const first = ignored[0];
  return first ? { ok: false, errorDescription: describeIgnored(first) } : { ok: true, filters };
}

export const parseEventFilters = (input: QueryInput) => parseStrictly(eventFiltersSchema, input);
export const parseRejectionFilters = (input: QueryInput) => parseStrictly(rejectionFiltersSchema, input);

/** `?event=` / `?rejection=`: the row whose detail drawer a link opens. */
export const openRowSchema = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
