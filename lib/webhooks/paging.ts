import "server-only";

import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

import { decodeCursor, encodeCursor, type CursorDirection } from "./cursor";
import type { KeysetBound } from "./export";
import type { Page } from "./types";

/**
 * Keyset paging of a log ordered by (received time, id), newest first: the order a page is read in, the
 * condition a link's cursor stands for, and one page with the cursors of its neighbours.
 */

/**
 * The indexes are declared DESC NULLS LAST (drizzle's default); a bare DESC means NULLS FIRST and
 * would not match them, so PostgreSQL would sort the whole table instead of reading the index.
 */
export const newestFirst = (column: SQL | AnyPgColumn) => sql`${column} desc nulls last`;
/** The same index read backwards (for a "newer" page): ASC NULLS FIRST is exactly its reverse. */
const oldestFirst = (column: SQL | AnyPgColumn) => sql`${column} asc nulls first`;

/**
 * A log's order by (received time, id) in the direction a page is read; a new SQL each call (drizzle rewrites a
 * union's).
 */
export function logOrder(direction: CursorDirection, receivedAt: SQL | AnyPgColumn, id: AnyPgColumn): SQL[] {
  const by = direction === "newer" ? oldestFirst : newestFirst;
  return [by(receivedAt), by(id)];
}

/** The rows past a page's cursor (none without one), and the direction the page reads in. */
export function cursorBound(
  cursorValue: string | undefined,
  receivedAt: AnyPgColumn,
  id: AnyPgColumn,
): { after: SQL | undefined; direction: CursorDirection } {
  const cursor = cursorValue ? decodeCursor(cursorValue) : null;
  if (!cursor) return { after: undefined, direction: "older" };
  return cursor.direction === "newer"
    ? { after: sql`(${receivedAt}, ${id}) > (${cursor.at}::timestamptz, ${cursor.id})`, direction: "newer" }
    : { after: sql`(${receivedAt}, ${id}) < (${cursor.at}::timestamptz, ${cursor.id})`, direction: "older" };
}

/**
 * One keyset page of a log ordered by (received time, id), newest first whichever way it was read.
 * `run` gets the cursor condition and the direction to read in (see logOrder); it asks for one row more
 * than the page to know whether the page has a next one in that direction.
 */
export async function keysetPage<R extends { id: number }>(
  cursorValue: string | undefined,
  limit: number,
  receivedAt: AnyPgColumn,
  id: AnyPgColumn,
  run: (after: SQL | undefined, direction: CursorDirection) => Promise<R[]>,
  receivedOf: (row: R) => Date,
): Promise<{ rows: R[]; nextCursor: string | null; newerCursor: string | null }> {
  const { after, direction } = cursorBound(cursorValue, receivedAt, id);
  const cursor = after !== undefined;
  const newer = direction === "newer";
  const fetched = await run(after, direction);
  const more = fetched.length > limit;
  const rows = fetched.slice(0, limit);
  if (newer) rows.reverse();
  const at = (row: R | undefined, direction: CursorDirection) =>
    row ? encodeCursor({ at: receivedOf(row).toISOString(), id: row.id, direction }) : null;
  // Reading older, the rows above exist (the cursor's row at least); reading newer, the rows below do.
  return {
    rows,
    nextCursor: newer ? at(rows.at(-1), "older") : more ? at(rows.at(-1), "older") : null,
    newerCursor: !cursor ? null : newer ? (more ? at(rows[0], "newer") : null) : at(rows[0], "newer"),
  };
}

/**
 * Where an export given a link's cursor starts: right after an "older" cursor's row; for a "newer" one,
 * after the first page the log itself shows for it (`firstPage`, whose items come first; no start
 * when that page was the last).
 */
export async function exportStart<T>(
  cursorValue: string,
  firstPage: () => Promise<Page<T>>,
): Promise<{ items: T[]; start?: KeysetBound }> {
  const cursor = decodeCursor(cursorValue);
  if (cursor.direction === "older") return { items: [], start: { at: cursor.at, id: cursor.id } };
  const page = await firstPage();
  if (!page.nextCursor) return { items: page.items };
  const next = decodeCursor(page.nextCursor);
  return { items: page.items, start: { at: next.at, id: next.id } };
}
