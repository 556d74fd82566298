import { z } from "zod";
import { REJECTION_REASON_VALUES } from "./types";

/** The log's filters, as they appear in the URL (page) and the query string (API). Client-safe. */
const optionalText = z.string().trim().max(256).optional();
const optionalTime = z.iso.datetime({ offset: true, message: "must be an ISO 8601 time" }).optional();
const pageFields = {
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
};

export const ALL_TYPES = "all";

export const eventFiltersSchema = z.object({
  connectionId: z.uuid().optional(),
  type: z.string().trim().min(1).max(200).default("authenticator.expired"),
  verificationMethod: optionalText,
  devicePlatform: optionalText,
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
  connectionId: z.uuid().optional(),
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

/** The query string of a filter set, without defaults, so shared links stay short. */
export function filtersToQuery(filters: Partial<Record<string, string | number | undefined>>, omit: string[] = []): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === "" || omit.includes(key)) continue;
    if (key === "type" && value === "authenticator.expired") continue;
    if (key === "userIdMatch" && value === "exact") continue;
    if (key === "limit" && Number(value) === 50) continue;
    params.set(key, String(value));
  }
  return params.toString();
}
