import type { z } from "zod";

import { FILTER_LABELS } from "./constants";
import { eventFiltersSchema, rejectionFiltersSchema } from "./schemas";

/** Reading the log's filters from a link or a query string, with the schemas of ./schemas. */

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

function unknownParameter(name: string, value: string, known: string[], listName: string): IgnoredFilter {
  const lower = name.toLowerCase();
  const meant =
    known.find((k) => k.toLowerCase() === lower) ??
    (known.includes(LIKELY_MEANT[lower] ?? "") ? LIKELY_MEANT[lower] : undefined);
  const hint = meant ? `; did you mean ${FILTER_LABELS[meant] ?? meant} (${meant}=${value})?` : "";
  return { name, label: name, message: `not a filter of ${listName}${hint}` };
}

/** A left-out parameter in one sentence: "Rows per page (limit): must be a whole number from 1 to 200". */
export function describeIgnored(f: IgnoredFilter): string {
  return f.label === f.name ? `${f.name}: ${f.message}` : `${f.label} (${f.name}): ${f.message}`;
}

/**
 * For the page, where a hand-edited link should not cost the whole view: every parameter that does
 * not parse, or that is no filter of the list (`listName`, as the message names it), is left out (and
 * reported, by its label); the rest apply.
 */
export function parseFiltersLeniently<T>(
  schema: FilterSchema<T>,
  input: QueryInput,
  listName = "this log",
): { filters: T; ignored: IgnoredFilter[] } {
  const values = toObject(input);
  const known = Object.keys(schema.shape);
  const ignored: IgnoredFilter[] = [];
  for (const name of Object.keys(values)) {
    if (known.includes(name)) continue;
    ignored.push(unknownParameter(name, values[name]!, known, listName));
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

/**
 * For the API: the same parse, but the first problem refuses the request (a script should not get a different set
 * than it asked for).
 */
function parseStrictly<T>(schema: FilterSchema<T>, input: QueryInput): ParsedFilters<T> {
  const { filters, ignored } = parseFiltersLeniently(schema, input);
  const first = ignored[0];
  return first ? { ok: false, errorDescription: describeIgnored(first) } : { ok: true, filters };
}

export const parseEventFilters = (input: QueryInput) => parseStrictly(eventFiltersSchema, input);
export const parseRejectionFilters = (input: QueryInput) => parseStrictly(rejectionFiltersSchema, input);
