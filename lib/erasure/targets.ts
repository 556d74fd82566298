import "server-only";

import { sql, type SQL } from "drizzle-orm";

import { rowsOf, type Executor } from "@/lib/db";
import { containsAny } from "@/lib/db/like";

import { ERASED } from "./constants";

/** Where an erasure reaches: one connection's data, or (null) every connection's. */
export type Scope = { connectionId: string | null };

/** An event by the pair every table that hangs on it holds: its connection and the service's event id. */
export type EventKey = { connection_id: string; event_id: string };

/** `column` is the scope's connection; always true for every connection. */
export const inScope = (column: SQL, scope: Scope): SQL =>
  scope.connectionId === null ? sql`true` : sql`${column} = ${scope.connectionId}::uuid`;

/** The value as a JSON string's body spells it (escaped, without its quotes). */
const inJson = (value: string) => JSON.stringify(value).replace(/^"|"$/g, "");
/** The value as a query string spells it (spaces as +). */
const inQuery = (value: string) => new URLSearchParams({ v: value }).toString().replace(/^v=/, "");

/** The ways stored text may spell a value: as it is, inside a JSON string, and in a URL's query (either encoding). */
export function spellings(value: string): string[] {
  return [...new Set([value, inJson(value), encodeURIComponent(value), inQuery(value)])];
}

/** A letter or digit beside a value makes it part of a longer id ("usr_1" in "usr_12"), not the value. */
const ID_CHARACTER = String.raw`[\p{L}\p{N}]`;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Replaces every spelling of every value, where it stands whole, with ERASED (the longest first). */
export function redactor(values: readonly string[]): (text: string) => string {
  const all = [...new Set(values.flatMap(spellings))].filter(Boolean).sort((a, b) => b.length - a.length);
  if (all.length === 0) return (text) => text;
  const whole = new RegExp(`(?<!${ID_CHARACTER})(?:${all.map(escapeRegExp).join("|")})(?!${ID_CHARACTER})`, "gu");
  return (text) => text.replace(whole, ERASED);
}

/** Each node of a JSON value, depth first, without recursion: the receiver stores bodies nested 5,000 levels deep. */
function* nodes(json: unknown): Generator<{ key: string | null; value: unknown }> {
  const stack: Array<{ key: string | null; value: unknown }> = [{ key: null, value: json }];
  for (let node = stack.pop(); node; node = stack.pop()) {
    yield node;
    const { value } = node;
    if (Array.isArray(value)) for (const item of value) stack.push({ key: null, value: item });
    else if (value && typeof value === "object")
      for (const [key, item] of Object.entries(value)) stack.push({ key, value: item });
  }
}

function holdsString(json: unknown, wanted: string): boolean {
  for (const { value } of nodes(json)) if (value === wanted) return true;
  return false;
}

/** Every string value of a JSON value, at any depth. */
export const stringsIn = (json: unknown): string[] =>
  [...nodes(json)].map(({ value }) => value).filter((value): value is string => typeof value === "string");

/** The fields of an event that hold a person's address, in any event kind. */
const ADDRESS_FIELDS = new Set(["email", "phoneNumber"]);

/**
 * Events of other kinds (only authenticator.expired's data is read into columns) that hold the id as a
 * value anywhere in their body: an index holds these few, a text search picks candidates, and the parsed
 * body decides (a longer id that starts with this one is not theirs).
 */
async function eventsWithoutUserColumn(
  db: Executor,
  userId: string,
  scope: Scope,
): Promise<Array<EventKey & { body: unknown }>> {
  const rows = rowsOf<EventKey & { raw_body: string }>(
    await db.execute(sql`
      select connection_id, event_id, raw_body from webhook_events
      where user_id is null and ${inScope(sql`connection_id`, scope)} and ${containsAny(sql`raw_body`, [userId, inJson(userId)])}`),
  );
  return rows
    .map(({ connection_id, event_id, raw_body }) => ({
      connection_id,
      event_id,
      body: JSON.parse(raw_body) as unknown,
    }))
    .filter(({ body }) => holdsString(body, userId));
}

/**
 * The user's events in scope, at most `limit` (null: all): theirs by user id first, then those of other
 * kinds that name them. An erasure takes them chunk by chunk, each chunk gone before the next is read.
 */
export async function userEventKeys(
  db: Executor,
  userId: string,
  scope: Scope,
  limit: number | null,
): Promise<EventKey[]> {
  const own = rowsOf<EventKey>(
    await db.execute(sql`
      select connection_id, event_id from webhook_events
      where user_id = ${userId} and ${inScope(sql`connection_id`, scope)} ${limit === null ? sql`` : sql`limit ${limit}`}`),
  );
  if (limit !== null && own.length >= limit) return own;
  const others = (await eventsWithoutUserColumn(db, userId, scope)).map(({ connection_id, event_id }) => ({
    connection_id,
    event_id,
  }));
  return [...own, ...others].slice(0, limit ?? undefined);
}

/**
 * What names the user in stored text: their id, and the emails and phone numbers their events in scope
 * carry (columns of authenticator.expired, fields of other kinds). Read before any of those events goes.
 */
export async function personalValues(db: Executor, userId: string, scope: Scope): Promise<string[]> {
  const columns = rowsOf<{ email: string | null; phone_number: string | null }>(
    await db.execute(sql`
      select distinct email, phone_number from webhook_events
      where user_id = ${userId} and ${inScope(sql`connection_id`, scope)} and (email is not null or phone_number is not null)`),
  );
  const fields = (await eventsWithoutUserColumn(db, userId, scope)).flatMap(({ body }) =>
    [...nodes(body)]
      .filter(({ key, value }) => key !== null && ADDRESS_FIELDS.has(key) && typeof value === "string")
      .map(({ value }) => value as string),
  );
  const addresses = [...columns.flatMap((row) => [row.email, row.phone_number]), ...fields];
  return [...new Set([userId, ...addresses.filter((value): value is string => Boolean(value))])];
}

/** The keys as a table (`connection_id`, `event_id`) for a statement to join. */
export const keysTable = (keys: readonly EventKey[]): SQL =>
  sql`select * from json_to_recordset(${JSON.stringify(keys)}::json) as k(connection_id uuid, event_id text)`;

/** `alias`'s row belongs to one of the `targets` events. */
export const ofTarget = (alias: string): SQL =>
  sql.raw(`${alias}.connection_id = t.connection_id and ${alias}.event_id = t.event_id`);
